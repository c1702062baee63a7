import ActionPipeConcurrency

/// The longest wait the tree makes: a timeout at or above it is no timeout, and a longer
/// backoff waits this long. (Waiting longer would overflow the clock's instant and trap;
/// 2^32 seconds is over a century.)
let _treeLongestWait = Duration.seconds(Int64(1) << 32)

/// Runs `operation` with a time limit measured by `clock`; when the limit passes first, throws
/// `OperationTreeError.timedOut` at once and cancels the operation. The operation runs in its
/// own task so that one ignoring cancellation cannot hold the caller: its result is dropped,
/// and `straggler` is set to what the caller may wait on until it has returned (the run keeps
/// the caller's slot until then). An operation whose caller was cancelled before it began is
/// never called.
func _treeWithTimeout<T: Sendable>(
    _ limit: Duration, node: String, clock: any Clock<Duration>,
    straggler: inout (any _TreeStraggler)?,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = _TreeTimeoutRace<T>()
    do {
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                race.begin(continuation)
                let work = Task {
                    // Cancelled before it began (the run's `cancel()` has returned): no call.
                    guard race.mayStart else {
                        race.workReturned(.failure(CancellationError()))
                        return
                    }
                    do {
                        race.workReturned(.success(try await operation()))
                    } catch {
                        race.workReturned(.failure(error))
                    }
                }
                let timer = Task {
                    try? await clock.sleep(for: limit)
                    race.finish(.failure(OperationTreeError.timedOut(node: node, after: limit)))
                }
                race.track(work, timer)
            }
        } onCancel: {
            race.cancel()
        }
    } catch {
        if !race.hasReturned { straggler = race }
        throw error
    }
}

/// A call that lost its race to a timeout (or a cancellation) and may still run.
protocol _TreeStraggler: AnyObject, Sendable {
    /// Returns `true` once the call has returned, or `false` as soon as the waiting task is
    /// cancelled (the run is over: nothing waits for the call any more).
    func waitForReturn() async -> Bool
}

/// The first of work, timer and cancellation to finish resumes the caller; the others are
/// cancelled. Also tells when the work has really returned (see `_TreeStraggler`).
/// `@unchecked Sendable`: all state is inside a `LockedValue`.
final class _TreeTimeoutRace<T: Sendable>: _TreeStraggler, @unchecked Sendable {
    private struct State {
        var continuation: UnsafeContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var resumed = false
        var tasks: [Task<Void, Never>] = []
        /// The caller was cancelled: the work, if it has not begun, must not begin.
        var cancelled = false
        /// The work returned, threw, or was never called.
        var returned = false
        /// Who waits for the work to return, and whether that wait was cancelled.
        var returnWaiter: UnsafeContinuation<Bool, Never>?
        var waitCancelled = false
    }
    private let state = LockedValue(State())

    func begin(_ continuation: UnsafeContinuation<T, any Error>) {
        // Cancellation may have come before the continuation existed.
        let early = state.withLock { state -> Result<T, any Error>? in
            if let result = state.result {
                state.resumed = true
                return result
            }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func track(_ tasks: Task<Void, Never>...) {
        let finished = state.withLock { state -> Bool in
            state.tasks = tasks
            return state.result != nil
        }
        if finished { for task in tasks { task.cancel() } }
    }

    /// Whether the work may begin: the caller was not cancelled.
    var mayStart: Bool { state.withLock { !$0.cancelled } }

    /// Whether the work has returned.
    var hasReturned: Bool { state.withLock { $0.returned } }

    /// The caller's task was cancelled: the caller resumes with `CancellationError`.
    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(.failure(CancellationError()))
    }

    /// The work's end: counted returned first, so a caller it resumes knows.
    func workReturned(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            state.returned = true
            defer { state.returnWaiter = nil }
            return state.returnWaiter
        }
        waiter?.resume(returning: true)
        finish(result)
    }

    func waitForReturn() async -> Bool {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let now = state.withLock { state -> Bool? in
                    if state.returned { return true }
                    if state.waitCancelled { return false }
                    state.returnWaiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
                state.waitCancelled = true
                defer { state.returnWaiter = nil }
                return state.returnWaiter
            }
            waiter?.resume(returning: false)
        }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock {
            state -> (UnsafeContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            guard let continuation = state.continuation, !state.resumed else { return (nil, []) }
            state.resumed = true
            state.continuation = nil
            return (continuation, state.tasks)
        }
        // The losers are cancelled before the caller resumes, so a timer's sleep is over
        // (and gone from its clock) by the time the caller sees the result.
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
