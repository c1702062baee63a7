import Synchronization

/// Where a handler runs, or where a publish happens.
///
/// Without an executor a handler runs synchronously on the publisher's thread, during the
/// publish, in subscription order. With one, the publish hands the handler to the executor
/// and goes on; the handler runs later (if its subscriber still exists then).
///
/// ```swift
/// bus.subscribe(BusTopic(Ping.self), on: .task) { _ in }
/// bus.subscribe(BusTopic(Ping.self), on: .custom { job in queue.async(execute: job) }) { _ in }
/// ```
///
/// An executor decides where a handler runs, not what it is isolated to. To handle events
/// isolated to an actor, subscribe on the actor itself:
/// ``EventBus/subscribe(_:on:name:_:)-(_,A,_,_)`` hands the handler an `isolated` actor, as
/// an observer `on:` an actor gets in observable state. For the main actor, `on: .mainActor`
/// with a handler that answers nothing gives a `@MainActor` handler, in publish order
/// (``EventBus/subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)``).
public struct BusExecutor: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case mainActor
        /// The main actor through the one queue of deliveries to it, in order (``MainActorDelivery``).
        case mainActorInOrder
        case actor(any Actor)
        case task
        case custom(@Sendable (@escaping @Sendable () -> Void) -> Void)
    }

    let kind: Kind

    /// The main actor: each handler call becomes a main-actor job (no order between them).
    ///
    /// For a `@MainActor` handler, in publish order, write `on: .mainActor` with a handler
    /// that answers nothing: that is ``EventBus/subscribe(_:on:name:_:)-(_,MainActorDelivery,_,_)``.
    /// This executor is for handlers that answer feedback or throw.
    ///
    /// ```swift
    /// bus.subscribe(topic, owner: screen, on: BusExecutor.mainActor) { screen, event in }
    /// ```
    public static let mainActor = BusExecutor(kind: .mainActor)

    /// The main actor, through the one queue of deliveries to it (see
    /// ``MainActorDelivery``): in publish order, and at once when a publish on the main actor
    /// finds nothing queued. What `subscribe(_:on: .mainActor)` runs its handlers on.
    static let mainActorInOrder = BusExecutor(kind: .mainActorInOrder)

    /// A new task per handler call, running concurrently with the publisher and with each
    /// other: no order.
    ///
    /// ```swift
    /// bus.subscribe(topic, on: .task) { event in }
    /// ```
    public static let task = BusExecutor(kind: .task)

    /// On `actor`'s executor (serially with its other work), without isolation: to use the
    /// actor's state, subscribe with ``EventBus/subscribe(_:on:name:_:)-(_,A,_,_)`` instead, whose
    /// handler is isolated to it.
    ///
    /// ```swift
    /// bus.subscribe(topic, on: .actor(store)) { event in }
    /// ```
    public static func actor(_ actor: any Actor) -> BusExecutor {
        BusExecutor(kind: .actor(actor))
    }

    /// Through `enqueue`, which must run each job it gets exactly once, e.g. on a dispatch
    /// queue or an operation queue. A serial `enqueue` keeps publish order.
    ///
    /// ```swift
    /// let serial = BusExecutor.custom { job in queue.async(execute: job) }
    /// ```
    public static func custom(
        _ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) -> BusExecutor {
        BusExecutor(kind: .custom(enqueue))
    }

    /// `mainActor`, `task`, `actor(Name)` or `custom`.
    ///
    /// ```swift
    /// BusExecutor.mainActor.description == "mainActor"
    /// ```
    public var description: String {
        switch kind {
        case .mainActor, .mainActorInOrder: "mainActor"
        case .task: "task"
        case .actor(let actor): "actor(\(type(of: actor)))"
        case .custom: "custom"
        }
    }

    /// Hands `job` over and returns at once; or, on the main actor's queue with nothing
    /// queued, runs it there and then.
    ///
    /// - Returns: Whether `job` has run already (only ever on the main actor's queue).
    /// - Complexity: O(1) (amortised), plus `job` when it runs at once.
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
        switch kind {
        case .mainActor: await MainActor.run { job() }
        case .mainActorInOrder:
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                _MainActorQueue.shared.enqueue {
                    job()
                    done.resume()
                }
            }
        case .task: await Task { job() }.value
        case .actor(let actor): await _busRun(on: actor, job)
        case .custom(let enqueue):
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                enqueue {
                    job()
                    done.resume()
                }
            }
        }
    }
}

/// Runs `job` on `actor`'s executor.
private func _busRun(on actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Appends `job` to the main actor's queue; returns whether it ran before returning (the
/// caller is on the main actor and nothing was queued).
///
/// Off the main actor it never has; on it, a job that has run by the time the queue returns
/// ran at once (a drain, also on the main actor, cannot run meanwhile).
///
/// - Complexity: O(1) amortised, plus `job` when it runs at once.
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

/// Whether a job handed to the main actor's queue ran at once.
private final class _BusRanFlag: Sendable {
    let value = Atomic<Bool>(false)
}
