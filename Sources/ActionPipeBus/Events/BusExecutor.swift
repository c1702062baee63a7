/// Where a handler runs (later, if its subscriber still exists) or a publish happens;
/// without one, during the publish. It gives no isolation.
public struct BusExecutor: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case mainActor
        case mainActorInOrder
        case actor(any Actor)
        case task
        case custom(@Sendable (@escaping @Sendable () -> Void) -> Void)
    }

    let kind: Kind

    /// The main actor: each handler call becomes a main-actor job, in no order.
    public static let mainActor = BusExecutor(kind: .mainActor)

    /// Through ``MainActorDelivery``'s queue: in publish order, at once when idle there.
    static let mainActorInOrder = BusExecutor(kind: .mainActorInOrder)

    /// A new task per handler call, concurrent with the publisher and each other.
    public static let task = BusExecutor(kind: .task)

    /// On `actor`'s executor (serially with its other work), without isolation.
    public static func actor(_ actor: any Actor) -> BusExecutor {
        BusExecutor(kind: .actor(actor))
    }

    /// Through `enqueue`, which must run each job exactly once; a serial one keeps order.
    public static func custom(
        _ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) -> BusExecutor {
        BusExecutor(kind: .custom(enqueue))
    }

    /// `mainActor`, `task`, `actor(Name)` or `custom`.
    public var description: String {
        switch kind {
        case .mainActor, .mainActorInOrder: "mainActor"
        case .task: "task"
        case .actor(let actor): "actor(\(type(of: actor)))"
        case .custom: "custom"
        }
    }

    /// Hands `job` over; returns whether it has run already (only the main actor's queue).
    @usableFromInline
    @discardableResult
    func enqueue(_ job: @escaping @Sendable () -> Void) -> Bool {
        switch kind {
        case .mainActorInOrder: return _busEnqueueInOrder(job)
        case .mainActor: Task { @MainActor in job() }
        case .task: Task { job() }
        case .actor(let actor): Task { await _busRun(on: actor, job) }
        case .custom(let enqueue): enqueue(job)
        }
        return false
    }

    /// Hands `job` over and returns its result once it has run.
    func run<Value: Sendable>(_ job: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { done in
            enqueue { done.resume(returning: job()) }
        }
    }
}

private func _busRun(on actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Whether `job` ran at once: on the main actor, the queue idle (as `enqueue` would).
private func _busEnqueueInOrder(_ job: @escaping @Sendable () -> Void) -> Bool {
    let queue = _MainActorQueue.shared
    guard queue.isIdleOnMainActor else {
        queue.enqueue { job() }
        return false
    }
    job()
    return true
}
