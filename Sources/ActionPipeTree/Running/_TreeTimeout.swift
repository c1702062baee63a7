import ActionPipeConcurrency

/// The longest wait: a timeout at or above it is none, a longer backoff waits this long
/// (longer could overflow the clock's instant and trap).
let _treeLongestWait = Duration.seconds(Int64(1) << 32)

/// Runs `operation` in its own task with a time limit on `clock`; when it passes, throws
/// `timedOut` at once and cancels the operation (one ignoring cancellation runs on, its
/// result dropped). Not started if the caller was cancelled first.
func _treeWithTimeout<T: Sendable>(
    _ limit: Duration, node: String, clock: any Clock<Duration>,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = _TreeTimeoutRace<T>()
    return try await withTaskCancellationHandler {
        let work = Task {
            // The caller was cancelled before this began: it never starts.
            guard race.mayStart else { return race.finish(.failure(CancellationError())) }
            do {
                race.finish(.success(try await operation()))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try? await clock.sleep(for: limit)
            race.finish(.failure(OperationTreeError.timedOut(node: node, after: limit)))
        }
        return try await withUnsafeThrowingContinuation { race.begin($0, tasks: [work, timer]) }
    } onCancel: {
        race.cancel()
    }
}

/// The first of work, timer and cancellation resumes the caller; the others are cancelled.
/// `@unchecked Sendable`: all state is inside a `LockedValue`.
final class _TreeTimeoutRace<T: Sendable>: @unchecked Sendable {
    private struct State {
        /// Set until the caller is resumed.
        var continuation: UnsafeContinuation<T, any Error>?
        var result: Result<T, any Error>?
        var tasks: [Task<Void, Never>] = []
        /// The caller was cancelled: the work, if it has not begun, must not begin.
        var cancelled = false
    }
    private let state = LockedValue(State())

    func begin(_ continuation: UnsafeContinuation<T, any Error>, tasks: [Task<Void, Never>]) {
        // A task or the cancellation may have finished before the continuation existed.
        let early = state.withLock { state -> Result<T, any Error>? in
            state.tasks = tasks
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        guard let early else { return }
        for task in tasks { task.cancel() }
        continuation.resume(with: early)
    }

    var mayStart: Bool { state.withLock { !$0.cancelled } }

    /// The caller resumes with `CancellationError`.
    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(.failure(CancellationError()))
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, tasks) = state.withLock {
            state -> (UnsafeContinuation<T, any Error>?, [Task<Void, Never>]) in
            guard state.result == nil else { return (nil, []) }
            state.result = result
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)  // none yet without a continuation
        }
        // Losers are cancelled before the caller resumes: a timer's sleep has left its
        // clock by the time the caller sees the result.
        for task in tasks { task.cancel() }
        continuation?.resume(with: result)
    }
}
