import ActionPipeBus
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// A ``BusTransport`` through PostgreSQL: `NOTIFY` on one channel, `LISTEN` on a connection
/// of its own, and in durable mode a table (``PostgresBusConfiguration/Mode``).
///
/// It opens two connections: one that sends, one that listens. Either reconnects after it
/// drops, waiting ``PostgresBusConfiguration/reconnectDelay`` at first and twice as long
/// after each failure, up to ``PostgresBusConfiguration/maximumReconnectDelay``; connection
/// changes and lost events go to `Diagnostics`, through the bridge. Most apps use it through
/// ``PostgresBusBridge``.
///
/// ```swift
/// let transport = try PostgresBusTransport(configuration: configuration)
/// let bridge = BusBridge(bus: bus, transport: transport)
/// ```
public final class PostgresBusTransport: BusTransport, Sendable {
    /// Where and how events travel.
    public let configuration: PostgresBusConfiguration
    let logger: Logger
    private let sending = Mutex<PostgresConnection?>(nil)
    private let state = Mutex(State())
    private static let connectionIDs = Atomic<Int>(0)

    private struct State {
        var listening = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var inbox: BusInbox?
    }

    /// A transport with `configuration`.
    ///
    /// ```swift
    /// let transport = try PostgresBusTransport(configuration: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The server, channel and mode.
    ///   - logger: postgres-nio's log; by default nothing is logged.
    /// - Throws: ``PostgresBusError/invalidName(_:)`` for a channel or table name that
    ///   cannot be used unquoted.
    /// - Complexity: O(1); connections are opened by ``send(_:)`` and ``receive(into:)``.
    public init(
        configuration: PostgresBusConfiguration,
        logger: Logger = Logger(label: "ActionPipePostgres") { _ in SwiftLogNoOpLogHandler() }
    ) throws {
        guard PostgresBusWire.isValidName(configuration.channel) else {
            throw PostgresBusError.invalidName(configuration.channel)
        }
        if case .durable(let table, _, _) = configuration.mode,
            !PostgresBusWire.isValidName(table)
        {
            throw PostgresBusError.invalidName(table)
        }
        self.configuration = configuration
        self.logger = logger
    }

    private var channel: String { configuration.channel }

    /// Closes a sending connection still open: one a send opened outside a running bridge,
    /// or after its receiving side stopped.
    deinit {
        if let connection = sending.withLock({ $0 }) {
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
        }
    }

    // MARK: Sending

    /// Sends `message`: in fast mode one `NOTIFY`, which fails at once when the server
    /// cannot be reached or the payload is too large; in durable mode an insert and a
    /// `NOTIFY` in one transaction, retried with backoff until it succeeds or the task is
    /// cancelled.
    ///
    /// ```swift
    /// try await transport.send(message)
    /// ```
    ///
    /// - Complexity: One round trip to the server when connected.
    public func send(_ message: BusMessage) async throws {
        guard case .durable(let table, _, _) = configuration.mode else {
            let text = try PostgresBusWire.text(of: message)
            let connection = try await sendingConnection()
            do {
                try await untilClosed(connection) { [channel, logger] in
                    _ = try await connection.query(
                        "SELECT pg_notify(\(channel), \(text))", logger: logger)
                }
            } catch {
                await drop(connection)
                throw error
            }
            return
        }
        var delay = configuration.reconnectDelay
        while true {
            do {
                let connection = try await sendingConnection()
                do {
                    try await untilClosed(connection) {
                        try await self.insert(message, into: table, on: connection)
                    }
                    return
                } catch {
                    await drop(connection)
                    throw error
                }
            } catch {
                try Task.checkCancellation()
                report("sending failed; retrying in \(delay)", error)
                try await Task.sleep(for: delay)
                delay = min(delay * 2, configuration.maximumReconnectDelay)
            }
        }
    }

    /// The insert and its `NOTIFY`, one statement and so one transaction. The advisory lock
    /// serialises the channel's inserts: ids commit in order, so a reader never finds a
    /// smaller id after a larger one.
    private func insert(
        _ message: BusMessage, into table: String, on connection: PostgresConnection
    ) async throws {
        let query: PostgresQuery = """
            WITH l AS (SELECT pg_advisory_xact_lock(hashtext(\(channel)))),
            e AS (
                INSERT INTO \(unescaped: table) (channel, sender, seq, topic, payload)
                SELECT \(channel), \(message.sender.rawValue), \(Int64(message.sequence)),
                    \(message.topic), \(ByteBuffer(bytes: message.payload))
                FROM l RETURNING id)
            SELECT pg_notify(\(channel), id::text) FROM e
            """
        try await connection.query(query, logger: logger)
    }

    private func sendingConnection() async throws -> PostgresConnection {
        if let connection = sending.withLock({ $0 }), !connection.isClosed { return connection }
        let connection = try await connect()
        do {
            try await prepareTable(on: connection)
        } catch {
            try? await connection.close()
            throw error
        }
        let replaced = sending.withLock { current in
            defer { current = connection }
            return current
        }
        if let replaced { try? await replaced.close() }
        return connection
    }

    private func drop(_ connection: PostgresConnection) async {
        sending.withLock { current in if current === connection { current = nil } }
        try? await connection.close()
    }

    /// A new connection, or an error within ``connectTimeout``.
    ///
    /// The attempt runs in a task of its own, raced against the time limit: a connection
    /// that the server closes while it starts up (as it stops or restarts) was seen to leave
    /// the attempt waiting for good, cancellation included, and the transport must go on to
    /// its next attempt. An attempt that succeeds after the limit is closed.
    private func connect() async throws -> PostgresConnection {
        let id = Self.connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let attempt = Task { [configuration, logger] in
            try await PostgresConnection.connect(
                configuration: configuration.connection, id: id, logger: logger)
        }
        let waiter = Waiter<PostgresConnection>()
        let limit = Self.connectTimeout
        return try await withCheckedThrowingContinuation { continuation in
            waiter.slot.withLock { $0 = continuation }
            Task {
                do {
                    let connection = try await attempt.value
                    if let waiting = waiter.slot.withLock({ $0.take() }) {
                        waiting.resume(returning: connection)
                    } else {
                        try? await connection.close()
                    }
                } catch {
                    waiter.slot.withLock { $0.take() }?.resume(throwing: error)
                }
            }
            Task {
                try? await Task.sleep(for: limit)
                guard let waiting = waiter.slot.withLock({ $0.take() }) else { return }
                attempt.cancel()
                waiting.resume(throwing: PostgresBusError.connectTimedOut(limit))
            }
        }
    }

    /// Who waits for a connection attempt: resumed once, by the attempt or the time limit.
    private final class Waiter<T: Sendable>: Sendable {
        let slot = Mutex<CheckedContinuation<T, any Error>?>(nil)
    }

    /// How long a connection attempt may take.
    static let connectTimeout: Duration = .seconds(10)

    /// Creates the durable table and its indexes if missing; nothing in fast mode. A session
    /// advisory lock keeps two instances from creating them at once (which fails).
    private func prepareTable(on connection: PostgresConnection) async throws {
        guard case .durable(let table, _, _) = configuration.mode else { return }
        let lock = "actionpipe_bus_create_\(table)"
        try await connection.query("SELECT pg_advisory_lock(hashtext(\(lock)))", logger: logger)
        do {
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: table) (
                    id bigserial PRIMARY KEY, channel text NOT NULL, sender text NOT NULL,
                    seq bigint NOT NULL, topic text NOT NULL, payload bytea NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            try await connection.query(
                """
                CREATE INDEX IF NOT EXISTS \(unescaped: table)_channel_id
                ON \(unescaped: table) (channel, id)
                """, logger: logger)
            try await connection.query(
                """
                CREATE INDEX IF NOT EXISTS \(unescaped: table)_created_at
                ON \(unescaped: table) (created_at)
                """, logger: logger)
        } catch {
            _ = try? await connection.query(
                "SELECT pg_advisory_unlock(hashtext(\(lock)))", logger: logger)
            throw error
        }
        try await connection.query("SELECT pg_advisory_unlock(hashtext(\(lock)))", logger: logger)
    }

    // MARK: Receiving

    /// Listens on the channel and hands what arrives to `inbox`, reconnecting with backoff
    /// after the connection drops, until the task is cancelled.
    ///
    /// In durable mode the first connection starts from the newest row; a reconnection
    /// catches up from the last id seen. Anything on the channel that is not a message
    /// (another client's `NOTIFY`) is reported as malformed and skipped.
    ///
    /// ```swift
    /// try await transport.receive(into: inbox)
    /// ```
    ///
    /// - Complexity: Fast mode: a parse and a delivery per notification. Durable mode: one
    ///   query per notification that names an unseen id, reading up to 1,000 rows at a time.
    public func receive(into inbox: BusInbox) async throws {
        state.withLock { $0.inbox = inbox }
        // The inbox holds the bridge, which holds this transport: let go of it when done.
        defer { state.withLock { $0.inbox = nil } }
        var delay = configuration.reconnectDelay
        let progress = ListenProgress()
        while !Task.isCancelled {
            progress.state.withLock { $0.listened = false }
            var connection: PostgresConnection? = nil
            var failure: (any Error)? = nil
            do {
                let listener = try await connect()
                connection = listener
                try await untilClosed(listener) {
                    try await self.listenSession(on: listener, progress: progress, inbox: inbox)
                }
            } catch {
                failure = error
            }
            if progress.state.withLock({ $0.listened }) { delay = configuration.reconnectDelay }
            setListening(false)
            if let connection {
                // Not awaited (a close was seen to hang as the server stops). The callback
                // holds the connection until its channel is closed: postgres-nio asserts (in
                // debug builds) that none is freed before, and a stop or a reconnect crashed.
                let closing: EventLoopFuture<Void> = connection.close()
                _ = closing
                connection.closeFuture.whenComplete { _ in _ = connection }
            }
            if Task.isCancelled { break }
            inbox.reportConnection(
                "the listening connection ended; reconnecting in \(delay)", error: failure)
            if case .fast = configuration.mode {
                inbox.reportDropped(
                    count: nil, "fast mode: notifications sent while it is disconnected are lost",
                    error: failure)
            }
            do { try await Task.sleep(for: delay) } catch { break }
            delay = min(delay * 2, configuration.maximumReconnectDelay)
        }
        if let connection = sending.withLock({ $0 }) { await drop(connection) }
    }

    /// What a listener has seen, kept across its connections.
    private final class ListenProgress: Sendable {
        let state = Mutex<(lastID: Int64?, lastCleanup: ContinuousClock.Instant, listened: Bool)>(
            (nil, .now, false))
    }

    /// One connection's listening: prepare, catch up, then each notification until the
    /// connection ends.
    private func listenSession(
        on listener: PostgresConnection, progress: ListenProgress, inbox: BusInbox
    ) async throws {
        try await prepareTable(on: listener)
        if case .durable = configuration.mode, progress.state.withLock({ $0.lastID }) == nil {
            // The first connection starts from the newest row, read before listening: what
            // commits between the two is caught up below, not skipped.
            let newest = try await newestID(on: listener)
            progress.state.withLock { $0.lastID = newest }
        }
        try await listener.listen(on: channel) { notifications in
            var (lastID, lastCleanup, _) = progress.state.withLock { $0 }
            if case .durable = configuration.mode, var last = lastID {
                try await catchUp(on: listener, after: &last, into: inbox)
                lastID = last
                progress.state.withLock { $0.lastID = last }
            }
            inbox.reportConnection("listening on channel \(channel)")
            progress.state.withLock { $0.listened = true }
            setListening(true)
            for try await notification in notifications {
                try await handle(
                    notification.payload, on: listener, lastID: &lastID,
                    lastCleanup: &lastCleanup, inbox: inbox)
                progress.state.withLock { ($0.lastID, $0.lastCleanup) = (lastID, lastCleanup) }
            }
        }
    }

    /// Runs `operation`, which uses `connection`, and fails as soon as the connection
    /// closes or the task is cancelled, whether or not `operation` has returned.
    ///
    /// postgres-nio was seen, when the server ends its connections (a restart), to leave a
    /// query or a listen waiting for good, cancellation included; the transport must go on
    /// to reconnect. `operation` is cancelled then, and abandoned if it does not return.
    private func untilClosed<T: Sendable>(
        _ connection: PostgresConnection, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await operation() }
        let waiter = Waiter<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.slot.withLock { $0 = continuation }
                Task {
                    let result = await work.result
                    waiter.slot.withLock { $0.take() }?.resume(with: result)
                }
                connection.closeFuture.whenComplete { _ in
                    work.cancel()
                    waiter.slot.withLock { $0.take() }?.resume(
                        throwing: PostgresBusError.connectionClosed)
                }
            }
        } onCancel: {
            work.cancel()
            let closing: EventLoopFuture<Void> = connection.close()
            _ = closing
        }
    }

    private func handle(
        _ payload: String, on listener: PostgresConnection, lastID: inout Int64?,
        lastCleanup: inout ContinuousClock.Instant, inbox: BusInbox
    ) async throws {
        guard case .durable(_, _, let cleanupInterval) = configuration.mode else {
            guard let message = PostgresBusWire.message(from: payload) else {
                return inbox.reportMalformed(
                    "a notification on channel \(channel) that is not a message: "
                        + "\(payload.prefix(80))")
            }
            inbox.deliver(message)
            return
        }
        guard let id = Int64(payload) else {
            return inbox.reportMalformed(
                "a notification on channel \(channel) that is not a row id: \(payload.prefix(80))")
        }
        var last = lastID ?? 0
        guard id > last else { return }
        try await catchUp(on: listener, after: &last, into: inbox)
        lastID = last
        if ContinuousClock.now - lastCleanup >= cleanupInterval {
            lastCleanup = .now
            _ = try await deleteExpired(on: listener)
        }
    }

    private static let batch = 1_000

    /// Delivers the channel's rows after `last`, in id order, and advances `last`.
    private func catchUp(
        on connection: PostgresConnection, after last: inout Int64, into inbox: BusInbox
    ) async throws {
        guard case .durable(let table, _, _) = configuration.mode else { return }
        while true {
            let rows = try await connection.query(
                """
                SELECT id, sender, seq, topic, payload FROM \(unescaped: table)
                WHERE channel = \(channel) AND id > \(last) ORDER BY id LIMIT \(Self.batch)
                """, logger: logger)
            var count = 0
            for try await row in rows {
                let (id, sender, sequence, topic, payload) = try row.decode(
                    (Int64, String, Int64, String, ByteBuffer).self)
                count += 1
                last = id
                inbox.deliver(
                    BusMessage(
                        topic: topic, sender: BusInstanceID(sender),
                        sequence: UInt64(clamping: sequence),
                        payload: Array(payload.readableBytesView)))
            }
            if count < Self.batch { return }
        }
    }

    private func newestID(on connection: PostgresConnection) async throws -> Int64 {
        guard case .durable(let table, _, _) = configuration.mode else { return 0 }
        let rows = try await connection.query(
            "SELECT coalesce(max(id), 0)::bigint FROM \(unescaped: table) WHERE channel = \(channel)",
            logger: logger)
        for try await row in rows { return try row.decode(Int64.self) }
        return 0
    }

    // MARK: Retention

    /// Deletes the channel's rows older than the retention window (durable mode; nothing in
    /// fast mode). The listener does this every `cleanupInterval` on its own.
    ///
    /// ```swift
    /// let deleted = try await transport.cleanUp()
    /// ```
    ///
    /// - Returns: How many rows were deleted.
    /// - Complexity: One statement; the rows are found through an index on their time.
    @discardableResult
    public func cleanUp() async throws -> Int {
        // A connection of its own, closed after: this may run while no bridge does.
        let connection = try await connect()
        do {
            try await prepareTable(on: connection)
            let deleted = try await deleteExpired(on: connection)
            try? await connection.close()
            return deleted
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private func deleteExpired(on connection: PostgresConnection) async throws -> Int {
        guard case .durable(let table, let retention, _) = configuration.mode else { return 0 }
        let seconds =
            Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        let rows = try await connection.query(
            """
            WITH d AS (
                DELETE FROM \(unescaped: table) WHERE channel = \(channel)
                AND created_at < now() - make_interval(secs => \(seconds)) RETURNING 1)
            SELECT count(*)::bigint FROM d
            """, logger: logger)
        for try await row in rows { return Int(try row.decode(Int64.self)) }
        return 0
    }

    // MARK: State

    /// Returns once the transport listens on its channel (at once if it does).
    ///
    /// ```swift
    /// await transport.waitUntilListening()
    /// ```
    ///
    /// - Complexity: O(1).
    public func waitUntilListening() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.listening { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Whether the transport listens on its channel now.
    public var isListening: Bool { state.withLock { $0.listening } }

    private func setListening(_ listening: Bool) {
        let waiters = state.withLock { state in
            state.listening = listening
            guard listening else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func report(_ what: String, _ error: (any Error)?) {
        state.withLock { $0.inbox }?.reportConnection(what, error: error)
    }
}
