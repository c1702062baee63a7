import ActionPipe
import ActionPipeConcurrency

/// A bus executor whose jobs wait until the test runs them, in order, on the thread that
/// calls ``runNext()`` or ``runAll()``, with no lock held. Jobs left queued are released
/// unrun with the executor (a `publishAndWait` waits on).
public final class ManualExecutor: Sendable {
    private struct State: _CountWaiting {
        /// A job taken to run becomes `nil`, so compacting releases no job under the lock.
        var jobs: [(@Sendable () -> Void)?] = []
        var head = 0
        var enqueued = 0
        var ran = 0
        var waits = _CountWaits<Void>()
        var waitedCount: Int { jobs.count - head }
        var waitResult: Void { () }
    }

    private let state = LockedValue(State())

    /// An executor with an empty queue.
    public init() {}

    /// The executor to give the bus; it holds the queue, not this object.
    ///
    /// - Complexity: O(1); enqueuing a job through it is amortised O(1), plus O(w) for w
    ///   tasks in ``waitForPending(_:)``.
    public var executor: BusExecutor {
        let state = self.state
        return .custom { job in
            let ready = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
                state.jobs.append(job)
                state.enqueued += 1
                return state.waits.take(reaching: state.waitedCount)
            }
            for continuation in ready { continuation.resume() }
        }
    }

    /// How many jobs are queued and not yet run.
    public var pendingCount: Int { state.withLock { $0.waitedCount } }

    /// How many jobs were ever queued.
    public var enqueuedCount: Int { state.withLock { $0.enqueued } }

    /// How many jobs have run (or are running now).
    public var ranCount: Int { state.withLock { $0.ran } }

    /// Runs the oldest queued job, on this thread, and returns whether there was one.
    ///
    /// - Complexity: Amortised O(1), plus the job.
    @discardableResult
    public func runNext() -> Bool {
        let job = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.head < state.jobs.count else { return nil }
            let job = state.jobs[state.head].take()
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

    /// Runs queued jobs, oldest first, including those they queue, until none is left;
    /// returns how many ran.
    ///
    /// - Complexity: O(j) for the j jobs run, plus the jobs.
    @discardableResult
    public func runAll() -> Int {
        var count = 0
        while runNext() { count += 1 }
        return count
    }

    /// Suspends until at least `count` jobs are queued and not yet run (or it is cancelled).
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    public func waitForPending(_ count: Int = 1) async {
        await state.wait(for: count)
    }
}
