import ActionPipeConcurrency

/// Where the event being delivered was published: on this bus (`local`), or on another
/// instance whose event a ``BusBridge`` received (`remote`).
///
/// Read ``current`` while handling an event. Only handlers called during the publish see
/// `remote`; handlers run on an executor, and readers of ``EventBus/events(for:buffering:)``,
/// see `local`, as does what a handler publishes in turn.
///
/// ```swift
/// bus.subscribe(BusTopic(OrderPlaced.self)) { order in
///     if case .remote(let instance) = BusOrigin.current { print("from", instance) }
/// }
/// ```
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

/// The remote event a bridge is publishing on this thread, current around the publish so
/// its handlers, and only they (not what they publish), see it as remote.
final class _BusRemoteScope {
    let sender: BusInstanceID
    let bus: ObjectIdentifier
    /// The thread's call depth outside the publish; handlers run one level deeper.
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

    /// Set if the running handler handles a remote event (of `bus`, when given) directly.
    static func current(on bus: ObjectIdentifier?) -> BusOrigin? {
        scopes.borrowCurrent { scope -> BusOrigin? in
            // Deeper than the publish's handlers means a nested, local publish or call.
            guard NestingDepth.counter(.call).pointee == scope.depth + 1 else { return nil }
            if let bus, bus != scope.bus { return nil }
            return .remote(scope.sender)
        } ?? nil
    }
}
