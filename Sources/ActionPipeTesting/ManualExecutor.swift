import ActionPipe
import ActionPipeConcurrency

/// A bus executor whose jobs wait in a queue until the test runs them: when a handler runs
/// is the test's decision, not a scheduler's.
///
/// Subscribe or publish ``executor``; each handler call (or publish) it is given is queued,
/// in order, and runs on the thread that calls ``runNext()`` or ``runAll()``. Jobs run
/// after the queue's lock is released, so a job may publish, and so enqueue more jobs,
/// without deadlocking.
///
/// ```swift
/// let manual = ManualExecutor()
/// bus.subscribe(BusTopic(Ping.self), on: manual.executor) { _ in print("handled") }
/// bus.publish(Ping())          // queued: nothing printed yet
/// #expect(manual.pendingCount == 1)
/// manual.runAll()              // prints "handled"
/// ```
///
/// A job must run exactly once (the contract of `BusExecutor.custom`): a test that ends
/// with jobs still queued leaves a `publishAndWait` on this executor waiting, and releases
/// the jobs unrun when the executor goes.
public final class ManualExecutor: Sendable {
    private struct State {
        /// The queue; a job taken to run is replaced by `nil`, so compacting the array
        /// (when the queue empties) releases no job under the lock.
        var jobs: [(@Sendable () -> Void)?] = []
        /// Index of the next job to run.
        var head = 0
        var enqueued = 0
        var ran = 0
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        /// Ids of waits whose task was cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
    }

    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: UnsafeContinuation<Void, Never>
    }

    private let state = LockedValue(State())

    /// An executor with an empty queue.
    ///
    /// ```swift
    /// let manual = ManualExecutor()
    /// ```
    ///
    /// - Complexity: O(1).
    public init() {}

    /// The executor to give the bus: each job it gets is queued here.
    ///
    /// ```swift
    /// bus.subscribe(topic, on: manual.executor) { event in }
    /// bus.publish(Ping(), on: manual.executor)
    /// ```
    ///
    /// The executor holds the queue, not this object.
    ///
    /// - Complexity: O(1); enqueuing a job through it is amortised O(1), plus O(w) for w
    ///   tasks in ``waitForPending(_:)``.
    public var executor: BusExecutor {
        let state = self.state
        return .custom { job in
            let ready = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
                state.jobs.append(job)
                state.enqueued += 1
                guard !state.waiters.isEmpty else { return [] }
                let pending = state.jobs.count - state.head
                let ready = state.waiters.filter { $0.count <= pending }.map(\.continuation)
                state.waiters.removeAll { $0.count <= pending }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }
    }

    /// How many jobs are queued and not yet run.
    ///
    /// ```swift
    /// #expect(manual.pendingCount == 0)
    /// ```
    ///
    /// - Complexity: O(1).
    public var pendingCount: Int { state.withLock { $0.jobs.count - $0.head } }

    /// How many jobs were ever queued.
    ///
    /// ```swift
    /// #expect(manual.enqueuedCount == 3)
    /// ```
    ///
    /// - Complexity: O(1).
    public var enqueuedCount: Int { state.withLock { $0.enqueued } }

    /// How many jobs have run (or are running now).
    ///
    /// ```swift
    /// #expect(manual.ranCount == 3)
    /// ```
    ///
    /// - Complexity: O(1).
    public var ranCount: Int { state.withLock { $0.ran } }

    /// Runs the oldest queued job, on this thread, and returns whether there was one.
    ///
    /// ```swift
    /// while manual.runNext() {}   // the same as runAll()
    /// ```
    ///
    /// - Complexity: Amortised O(1), plus the job.
    @discardableResult
    public func runNext() -> Bool {
        let job = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.head < state.jobs.count else { return nil }
            let job = state.jobs[state.head]
            state.jobs[state.head] = nil
            state.head += 1
            state.ran += 1
            if state.head == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return job
        }
        guard let job else { return false }
        job()
        return true
    }

    /// Runs queued jobs, oldest first, until none is left, including the jobs they queue,
    /// and returns how many ran. A job that always queues another never lets it return.
    ///
    /// ```swift
    /// bus.publish(Ping())
    /// #expect(manual.runAll() == 1)
    /// ```
    ///
    /// - Complexity: O(j) for the j jobs run, plus the jobs.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }

    /// Suspends until at least `count` jobs are queued and not yet run: for a job queued
    /// from another task (as `publishAndWait` does), before ``runAll()``.
    ///
    /// ```swift
    /// async let summary = bus.publishAndWait(Ping())
    /// await manual.waitForPending(1)
    /// manual.runAll()
    /// _ = await summary
    /// ```
    ///
    /// There is no timeout: a test bounds its waits with `.timeLimit`. When the waiting task
    /// is cancelled the wait returns early, so a test fails instead of hanging.
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    public func waitForPending(_ count: Int = 1) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    if state.jobs.count - state.head >= count { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
        // A wait that ended normally leaves no early-cancellation mark behind.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }
}
