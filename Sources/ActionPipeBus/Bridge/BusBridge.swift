import ActionPipeConcurrency
import ActionPipeShared

/// Connects an ``EventBus`` to the buses of other instances through a ``BusTransport``:
/// bridged events published here are sent; those received are published here as remote.
public final class BusBridge: Sendable, CustomStringConvertible {
    /// The bus whose events this bridge sends and receives.
    public let bus: EventBus
    /// This instance's id, sent with every event.
    public let instance: BusInstanceID
    let transport: any BusTransport
    let core: _BusBridgeCore
    let outbox: AsyncStream<BusMessage>
    let registrations = RegistrationBag()

    /// A bridge of `bus` over `transport`; past `outboxLimit` waiting, events are dropped.
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

    /// Bridges `topic` under `name` on the wire (by default the type's name), once per name: a
    /// second topic of the same name is reported to ``Diagnostics`` and ignored.
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
        // The bus's identity, not the bus: its own subscription must not keep it alive.
        let busID = ObjectIdentifier(bus)
        let token = bus._subscribe(topic, owner: nil, name: "bridge", executor: nil) {
            _, event in
            if _BusRemoteScope.current(on: busID) == nil { core.send(event, as: name) }
            return nil
        }
        token.store(in: registrations)
    }

    /// Runs the bridge, once, until the task is cancelled or receiving fails for good.
    ///
    /// - Throws: What ``BusTransport/receive(into:)`` throws; ``BusBridgeError/alreadyRan``.
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
