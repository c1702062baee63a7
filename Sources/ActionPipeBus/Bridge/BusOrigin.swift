import ActionPipeConcurrency

/// Where the event being delivered was published: here, or on another instance (`remote`,
/// seen only by handlers called during the publish).
public enum BusOrigin: Hashable, Sendable {
    /// Published on this process's bus.
    case local
    /// Published on the instance named, and received through a bridge.
    case remote(BusInstanceID)

    /// The origin of the event the calling thread is delivering; `local` when not remote.
    public static var current: BusOrigin {
        _BusRemoteScope.current(on: nil) ?? .local
    }
}

/// The remote event a bridge is publishing on this thread, seen by its handlers only.
final class _BusRemoteScope {
    let sender: BusInstanceID
    let bus: ObjectIdentifier
    /// Outside the publish; its handlers run one level deeper.
    let depth: Int

    init(sender: BusInstanceID, bus: ObjectIdentifier, depth: Int) {
        self.sender = sender
        self.bus = bus
        self.depth = depth
    }

    static let scopes = ThreadScope<_BusRemoteScope>()

    static func publish<Event: BusEvent>(
        _ event: Event, on bus: EventBus, from sender: BusInstanceID
    ) {
        let depth = NestingDepth.counter(.call).pointee
        let scope = _BusRemoteScope(sender: sender, bus: ObjectIdentifier(bus), depth: depth)
        scopes.withCurrent(scope) { _ = bus.publish(event) }
    }

    /// Set if the running handler handles a remote event (of `bus`, when given).
    static func current(on bus: ObjectIdentifier?) -> BusOrigin? {
        scopes.borrowCurrent { scope -> BusOrigin? in
            guard NestingDepth.counter(.call).pointee == scope.depth + 1 else { return nil }
            if let bus, bus != scope.bus { return nil }
            return .remote(scope.sender)
        } ?? nil
    }
}
