import ActionPipeConcurrency
import ActionPipeShared

/// Connects an ``EventBus`` to the buses of other instances through a ``BusTransport``:
/// events of the bridged topics published here are encoded and sent; those the transport
/// receives are decoded and published here, as remote events.
///
/// ```swift
/// let bridge = BusBridge(bus: bus, transport: transport)
/// bridge.bridge(BusTopic(anySubtypeOf: OrderPlaced.self))
/// let running = Task { try await bridge.run() }   // until cancelled
/// bus.publish(OrderPlaced(id: 7))                  // also reaches the other instances
/// ```
///
/// - A received event is published with ``BusOrigin/remote(_:)`` (seen in
///   ``BusOrigin/current``) and never sent out again by any bridge on the bus; what its
///   handlers publish in turn is local, and is sent.
/// - Only bridged topics cross; every instance bridges a type under the same name and
///   ``BusCoder``. Feedback and `publishAndWait` stay local.
/// - Each sender's events are sent in publish order; duplicates (a sequence already seen)
///   are dropped. At most or at least once is the transport's to say.
/// - The outbox decouples publish from send; past `outboxLimit`, new events are dropped and
///   reported to ``Diagnostics``, as are events that fail to encode, decode or send.
public final class BusBridge: Sendable, CustomStringConvertible {
    /// The bus whose events this bridge sends and receives.
    public let bus: EventBus
    /// This instance's id, sent with every event.
    public let instance: BusInstanceID
    let transport: any BusTransport
    let core: _BusBridgeCore
    let outbox: AsyncStream<BusMessage>
    let registrations = RegistrationBag()

    /// A bridge of `bus` over `transport`. Nothing crosses until topics are bridged with
    /// ``bridge(_:as:)`` and ``run()`` runs; past `outboxLimit` events waiting to be sent,
    /// new ones are dropped and reported.
    public init(
        bus: EventBus, transport: some BusTransport, instance: BusInstanceID = .random(),
        coder: some BusCoder = BusJSONCoder(), outboxLimit: Int = 100_000
    ) {
        self.bus = bus
        self.transport = transport
        self.instance = instance
        let (stream, continuation) = AsyncStream.makeStream(
            of: BusMessage.self, bufferingPolicy: .unbounded)
        outbox = stream
        core = _BusBridgeCore(
            instance: instance, coder: coder, outbox: continuation, limit: outboxLimit,
            busName: bus.name)
    }

    /// `BusBridge(<instance> of EventBus(<name>))`.
    public var description: String { "BusBridge(\(instance) of \(bus))" }

    /// Bridges `topic`: its events published here are sent, and those arriving under
    /// `name` that match it are published here. Bridge each event type once, with its
    /// widest topic; a second topic of the same name is reported and ignored.
    ///
    /// `name` is the name on the wire, the same in every instance; by default the event
    /// type's name.
    ///
    /// ```swift
    /// bridge.bridge(BusTopic(Login.self, .login), as: "session.login")
    /// ```
    public func bridge<Event: BusEvent & Codable>(_ topic: BusTopic<Event>, as name: String? = nil)
    {
        let name = name ?? String(describing: Event.self)
        let key = topic.key
        let inbound: _BusBridgeCore.Inbound = { [coder = core.coder] payload, bus, sender in
            let event = try coder.decode(Event.self, from: payload)
            guard key._matches(event) else { return false }
            _BusRemoteScope.publish(event, on: bus, from: sender)
            return true
        }
        guard core.add(name, inbound) else {
            Diagnostics.report(
                Diagnostic(
                    .bridgeEventDropped,
                    "\(self) already bridges a topic named '\(name)'; \(topic) is not bridged "
                        + "(bridge each event type once, with its widest topic)."))
            return
        }
        let core = core
        // No feedback, as a stream's subscription. The bus's identity, not the bus: its own
        // subscription must not keep it alive.
        let busID = ObjectIdentifier(bus)
        let token = bus._subscribe(topic, owner: nil, name: "bridge", executor: nil) {
            _, event in
            // A remote event being delivered is not sent back out.
            if _BusRemoteScope.current(on: busID) == nil { core.send(event, as: name) }
            return nil
        }
        token.store(in: registrations)
    }

    /// Runs the bridge until the calling task is cancelled: sends the outbox through the
    /// transport and publishes what it receives. Run it once; when it returns, the bridge's
    /// subscriptions are cancelled.
    ///
    /// - Throws: What ``BusTransport/receive(into:)`` throws when it fails for good;
    ///   ``BusBridgeError/alreadyRan`` on a second run.
    public func run() async throws {
        guard core.start() else { throw BusBridgeError.alreadyRan }
        defer {
            registrations.cancelAll()
            core.finish()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [outbox, transport, core] in
                for await message in outbox {
                    do {
                        try await transport.send(message)
                    } catch {
                        if Task.isCancelled { return }
                        core.reportDropped(message, "its transport failed to send it", error)
                    }
                    core.sent()
                }
            }
            let inbox = BusInbox(bridge: self)
            group.addTask { [transport] in try await transport.receive(into: inbox) }
            // Either ends: when cancelled, or when receiving fails for good.
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// How many events wait in the outbox to be sent.
    public var pendingCount: Int { core.pendingCount }
}

/// What a ``BusBridge`` throws itself.
public enum BusBridgeError: Error, Hashable, Sendable {
    /// ``BusBridge/run()`` was called on a bridge that already ran.
    case alreadyRan
}
