import ActionPipeConcurrency

/// Where the event being delivered was published: on this bus (`local`), or on another
/// instance whose event a ``BusBridge`` received (`remote`).
///
/// A handler reads ``current`` while it handles an event. It is known to handlers called
/// during the publish (a subscription without an executor); a handler run later on an
/// executor, and a reader of ``EventBus/events(for:buffering:)``, see `local`. An event a
/// handler publishes while handling a remote one is local: it is that instance's own.
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

    /// The origin of the event the calling thread is delivering, `local` when none is
    /// remote.
    ///
    /// ```swift
    /// BusOrigin.current == .local
    /// ```
    ///
    /// - Complexity: O(1): a thread-specific read, and one more while a remote event is
    ///   being delivered.
    public static var current: BusOrigin {
        _BusRemoteScope.current(on: nil) ?? .local
    }
}

/// The remote event a bridge is publishing on the calling thread: made current around the
/// publish, so that the handlers it calls, and only they (not what they publish in turn),
/// see it as remote.
final class _BusRemoteScope {
    let sender: BusInstanceID
    let bus: ObjectIdentifier
    /// The thread's call depth outside the publish: its handlers run one level deeper.
    let depth: Int

    init(sender: BusInstanceID, bus: ObjectIdentifier, depth: Int) {
        self.sender = sender
        self.bus = bus
        self.depth = depth
    }

    static let scopes = ThreadScope<_BusRemoteScope>()

    /// Publishes `event` on `bus` as a remote event from `sender`.
    static func publish<Event: BusEvent>(
        _ event: Event, on bus: EventBus, from sender: BusInstanceID
    ) {
        let depth = NestingDepth.counter(.call).pointee
        let scope = _BusRemoteScope(sender: sender, bus: ObjectIdentifier(bus), depth: depth)
        scopes.withCurrent(scope) { _ = bus.publish(event) }
    }

    /// The origin of the handler running on this thread, if it is handling a remote event
    /// (of `bus`, when given) directly.
    static func current(on bus: ObjectIdentifier?) -> BusOrigin? {
        scopes.borrowCurrent { scope -> BusOrigin? in
            // A publish raises the depth by one around its handlers: deeper means a handler
            // published or called something else, which is local.
            guard NestingDepth.counter(.call).pointee == scope.depth + 1 else { return nil }
            if let bus, bus != scope.bus { return nil }
            return .remote(scope.sender)
        } ?? nil
    }
}
