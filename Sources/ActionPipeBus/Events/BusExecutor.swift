import Synchronization

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

    /// Hands `job` over and returns when it has run.
    func run(_ job: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            enqueue {
                job()
                done.resume()
            }
        }
    }
}

private func _busRun(on actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Whether `job` ran at once (on the main actor no drain can run meanwhile).
private func _busEnqueueInOrder(_ job: @escaping @Sendable () -> Void) -> Bool {
    guard _MainActorQueue.isOnMainActor else {
        _MainActorQueue.shared.enqueue { job() }
        return false
    }
    let ran = _BusRanFlag()
    _MainActorQueue.shared.enqueue {
        job()
        ran.value.store(true, ordering: .relaxed)
    }
    return ran.value.load(ordering: .relaxed)
}

private final class _BusRanFlag: Sendable {
    let value = Atomic<Bool>(false)
}
