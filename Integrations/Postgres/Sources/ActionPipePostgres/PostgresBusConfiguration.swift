import PostgresNIO

/// Where and how a ``PostgresBusTransport`` shares a bus's events.
///
/// ```swift
/// let configuration = PostgresBusConfiguration(
///     connection: .init(
///         host: "127.0.0.1", port: 5432, username: "app", password: nil, database: "app",
///         tls: .disable),
///     channel: "orders", mode: .durable())
/// ```
public struct PostgresBusConfiguration: Sendable {
    /// How events travel through PostgreSQL, and what is guaranteed.
    public enum Mode: Sendable, Hashable {
        /// Each event is one `NOTIFY` on the channel, and nothing is stored: delivered at most
        /// once, and only to instances listening at that moment. Events sent while a
        /// listener is disconnected are lost to it (reported to `Diagnostics`); a send while
        /// the sender is disconnected fails and is reported. A payload of 8,000 bytes or
        /// more cannot be sent: ``PostgresBusError/payloadTooLarge(bytes:limit:)``.
        case fast
        /// Each event is inserted into `table` and announced by a `NOTIFY` of its id, in one
        /// transaction; listeners read the rows. A listener that reconnects catches up from
        /// the last id it saw, and a sender that loses its connection retries until the
        /// insert succeeds: delivered at least once, and each message carries its sender's
        /// sequence number, by which a bridge drops the duplicates. Payloads of any size
        /// (the row holds them). Rows older than `retention` are deleted every
        /// `cleanupInterval` by the listener (and by ``PostgresBusTransport/cleanUp()``):
        /// a listener down for longer than `retention` misses what was deleted.
        ///
        /// Inserts on one channel are serialised (a transaction-scoped advisory lock), so
        /// ids become visible in order and a reader that has seen id n never later finds a
        /// smaller one.
        case durable(
            table: String = "actionpipe_bus_events", retention: Duration = .seconds(86_400),
            cleanupInterval: Duration = .seconds(300))
    }

    /// The server and credentials; the transport opens two connections with it, one to
    /// send and one to listen.
    public var connection: PostgresConnection.Configuration
    /// The `NOTIFY` channel: the same in every instance that shares these events; lower
    /// case letters, digits and `_`, at most 63 characters.
    public var channel: String
    /// Fast or durable.
    public var mode: Mode
    /// The wait before the first reconnection attempt; it doubles with each failure.
    public var reconnectDelay: Duration
    /// The longest wait between reconnection attempts.
    public var maximumReconnectDelay: Duration

    /// A configuration.
    ///
    /// ```swift
    /// let configuration = PostgresBusConfiguration(connection: connection, channel: "orders")
    /// ```
    ///
    /// - Parameters:
    ///   - connection: The server and credentials.
    ///   - channel: The channel; see ``channel``.
    ///   - mode: ``Mode/fast`` by default.
    ///   - reconnectDelay: The first wait before reconnecting.
    ///   - maximumReconnectDelay: The longest wait before reconnecting.
    /// - Complexity: O(1).
    public init(
        connection: PostgresConnection.Configuration, channel: String, mode: Mode = .fast,
        reconnectDelay: Duration = .milliseconds(100),
        maximumReconnectDelay: Duration = .seconds(5)
    ) {
        self.connection = connection
        self.channel = channel
        self.mode = mode
        self.reconnectDelay = reconnectDelay
        self.maximumReconnectDelay = maximumReconnectDelay
    }
}
