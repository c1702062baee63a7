import ActionPipeBus
import Logging
import ServiceLifecycle

/// A bus bridged to PostgreSQL in one line, and a swift-service-lifecycle `Service`: a
/// ``PostgresBusTransport`` and the `BusBridge` over it.
///
/// ```swift
/// let shared = try PostgresBusBridge(bus: bus, configuration: configuration)
/// shared.bridge(BusTopic(anySubtypeOf: OrderPlaced.self))
/// let group = ServiceGroup(services: [shared], logger: logger)   // or: try await shared.run()
/// try await group.run()
/// ```
///
/// It stops when its task is cancelled or on graceful shutdown; events still waiting in the
/// bridge's outbox then are not sent.
public final class PostgresBusBridge: Service, Sendable {
    /// The bridge: its bus, its instance id, its outbox.
    public let busBridge: BusBridge
    /// The transport under it.
    public let transport: PostgresBusTransport

    /// A bridge of `bus` through PostgreSQL.
    ///
    /// ```swift
    /// let shared = try PostgresBusBridge(bus: bus, configuration: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - bus: The bus to share.
    ///   - configuration: The server, channel and mode.
    ///   - instance: This instance's id; by default a random one.
    ///   - coder: How events are encoded; JSON by default.
    ///   - logger: postgres-nio's log; by default nothing is logged.
    /// - Throws: ``PostgresBusError/invalidName(_:)`` for an unusable channel or table name.
    /// - Complexity: O(1).
    public init(
        bus: EventBus, configuration: PostgresBusConfiguration,
        instance: BusInstanceID = .random(), coder: some BusCoder = BusJSONCoder(),
        logger: Logger = Logger(label: "ActionPipePostgres") { _ in SwiftLogNoOpLogHandler() }
    ) throws {
        transport = try PostgresBusTransport(configuration: configuration, logger: logger)
        busBridge = BusBridge(bus: bus, transport: transport, instance: instance, coder: coder)
    }

    /// Shares `topic` with the other instances; see `BusBridge.bridge(_:as:)`.
    ///
    /// ```swift
    /// shared.bridge(BusTopic(anySubtypeOf: OrderPlaced.self))
    /// ```
    ///
    /// - Complexity: O(1) amortised: one subscription.
    public func bridge<Event: BusEvent & Codable>(_ topic: BusTopic<Event>, as name: String? = nil)
    {
        busBridge.bridge(topic, as: name)
    }

    /// Runs the bridge until the task is cancelled or a graceful shutdown begins.
    ///
    /// ```swift
    /// try await shared.run()
    /// ```
    ///
    /// - Complexity: That of `BusBridge.run()` over ``PostgresBusTransport``.
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [busBridge] in try await busBridge.run() }
    }

    /// Returns once the transport listens: events published elsewhere from then on reach
    /// this bus.
    ///
    /// ```swift
    /// await shared.waitUntilListening()
    /// ```
    ///
    /// - Complexity: O(1).
    public func waitUntilListening() async {
        await transport.waitUntilListening()
    }
}
