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
/// isolated to an actor (the main actor included), subscribe on the actor itself:
/// ``EventBus/subscribe(_:on:name:_:)`` hands the handler an `isolated` actor, as an
/// observer `on:` an actor gets in observable state.
public struct BusExecutor: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case mainActor
        case actor(any Actor)
        case task
        case custom(@Sendable (@escaping @Sendable () -> Void) -> Void)
    }

    let kind: Kind

    /// The main actor: each handler call becomes a main-actor job.
    ///
    /// ```swift
    /// bus.subscribe(topic, owner: screen, on: .mainActor) { screen, event in }
    /// ```
    public static let mainActor = BusExecutor(kind: .mainActor)

    /// A new task per handler call, running concurrently with the publisher and with each
    /// other: no order.
    ///
    /// ```swift
    /// bus.subscribe(topic, on: .task) { event in }
    /// ```
    public static let task = BusExecutor(kind: .task)

    /// On `actor`'s executor (serially with its other work), without isolation: to use the
    /// actor's state, subscribe with ``EventBus/subscribe(_:on:name:_:)`` instead, whose
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
        case .mainActor: "mainActor"
        case .task: "task"
        case .actor(let actor): "actor(\(type(of: actor)))"
        case .custom: "custom"
        }
    }

    /// Hands `job` over and returns at once.
    @usableFromInline
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        switch kind {
        case .mainActor: Task { @MainActor in job() }
        case .task: Task { job() }
        case .actor(let actor): Task { await _busRun(on: actor, job) }
        case .custom(let enqueue): enqueue(job)
        }
    }

    /// Hands `job` over and returns when it has run.
    func run(_ job: @escaping @Sendable () -> Void) async {
        switch kind {
        case .mainActor: await MainActor.run { job() }
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
