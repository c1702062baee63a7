import ActionPipeConcurrency

/// The longest wait: a timeout at or above it is none, a longer backoff waits this long
/// (longer could overflow the clock's instant and trap).
let _treeLongestWait = Duration.seconds(Int64(1) << 32)

/// Runs `operation` with a time limit on `clock`; when it passes, throws `timedOut` at once
/// and cancels the operation. The operation runs in its own task so that one ignoring
/// cancellation cannot hold the caller: it runs on, outside the limits, and its result is
/// dropped. Not called if the caller was cancelled first.
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
                    // The caller was cancelled before this began: it never starts.
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
        // `straggler` stays nil: waiting for a call that ignores cancellation would hang the
        // run when it never returns, and bounding a lost request is what a timeout is for.
        throw error
    }
}

/// A call that lost its race to a timeout (or a cancellation) and may still run.
protocol _TreeStraggler: AnyObject, Sendable {
    /// `true` once the call has returned; `false` as soon as the waiting task is cancelled
    /// (the run is over).
    func waitForReturn() async -> Bool
}

/// The first of work, timer and cancellation resumes the caller; the others are cancelled.
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

    var mayStart: Bool { state.withLock { !$0.cancelled } }

    var hasReturned: Bool { state.withLock { $0.returned } }

    /// The caller resumes with `CancellationError`.
    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(.failure(CancellationError()))
    }

    /// Marks the work returned before resuming the caller, so the caller sees it.
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
        // Losers are cancelled before the caller resumes: a timer's sleep has left its
        // clock by the time the caller sees the result.
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
