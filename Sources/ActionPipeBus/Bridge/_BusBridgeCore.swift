import ActionPipeConcurrency
import ActionPipeShared

/// A bridge's state, held by its bus subscriptions so the bus keeps no bridge alive.
final class _BusBridgeCore: Sendable {
    /// Publishes a decoded payload as from the sender; whether it did.
    typealias Inbound = @Sendable ([UInt8], EventBus, BusInstanceID) throws -> Bool

    struct State {
        var inbound: [String: Inbound] = [:]
        var nextSequence: UInt64 = 1
        var pending = 0
        var started = false
        var finished = false
        var lastSeen: [BusInstanceID: UInt64] = [:]
    }

    let instance: BusInstanceID
    let coder: any BusCoder
    let outbox: AsyncStream<BusMessage>.Continuation
    let limit: Int
    let busName: String
    let state = LockedValue(State())

    init(
        instance: BusInstanceID, coder: any BusCoder,
        outbox: AsyncStream<BusMessage>.Continuation, limit: Int, busName: String
    ) {
        self.instance = instance
        self.coder = coder
        self.outbox = outbox
        self.limit = limit
        self.busName = busName
    }

    func add(_ name: String, _ inbound: @escaping Inbound) -> Bool {
        state.withLock { state in
            guard state.inbound[name] == nil else { return false }
            state.inbound[name] = inbound
            return true
        }
    }

    func start() -> Bool {
        state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
    }

    func finish() {
        state.withLock { $0.finished = true }
        outbox.finish()
    }

    var pendingCount: Int { state.withLock { $0.pending } }

    func sent() {
        state.withLock { $0.pending -= 1 }
    }

    /// Encodes `event` unlocked, then numbers and queues it under the lock, in one order.
    func send<Event: Encodable>(_ event: Event, as name: String) {
        let payload: [UInt8]
        do {
            payload = try coder.encode(event)
        } catch {
            return report(": an event \(name) was not sent: it does not encode", error)
        }
        let refused = state.withLock { state -> String? in
            if state.finished { return "the bridge has stopped" }
            if state.pending >= limit { return "the outbox holds \(limit) events already" }
            let message = BusMessage(
                topic: name, sender: instance, sequence: state.nextSequence, payload: payload)
            state.nextSequence += 1
            state.pending += 1
            outbox.yield(message)  // library code only, so under the lock
            return nil
        }
        if let refused { report(": an event \(name) was not sent: \(refused)", nil) }
    }

    /// The inbound route of a message new from its sender; records its sequence.
    func accept(_ message: BusMessage) -> Inbound? {
        state.withLock { state -> Inbound? in
            guard let inbound = state.inbound[message.topic] else { return nil }
            if let last = state.lastSeen[message.sender], message.sequence <= last { return nil }
            state.lastSeen[message.sender] = message.sequence
            return inbound
        }
    }

    func reportDropped(_ message: BusMessage, _ reason: String, _ error: (any Error)?) {
        report(
            ": event \(message.topic) #\(message.sequence) from \(message.sender) was dropped: "
                + reason, error)
    }

    /// `text` follows "bridge ID of EventBus(NAME)".
    func report(
        _ text: String, _ error: (any Error)?, kind: Diagnostic.Kind = .bridgeEventDropped
    ) {
        Diagnostics.report(
            Diagnostic(kind, "bridge \(instance) of EventBus(\(busName))\(text)", error: error))
    }
}
