import ActionPipeConcurrency

extension BoundAction where Kind == ActionKind.Async {
    /// Calls the async action: runs every pipe of the chain that registered it, in order,
    /// each handler after the previous one has returned.
    ///
    /// Before each handler starts the call checks for cancellation, and once cancelled
    /// throws `CancellationError`; synchronous handlers in a row are one step. A running
    /// handler sees cancellation itself. The call runs on the caller's actor, with no hop
    /// (a handler marked with a global actor still runs on that actor).
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Throws: The first error a handler throws, unchanged, or `CancellationError`.
    @inlinable @inline(__always)
    @discardableResult
    public nonisolated(nonsending) consuming func callAsFunction(_ arguments: repeat each Argument)
        async throws -> Result?
    {
        // `nonisolated(nonsending)`: a plain `async` function would hop off the caller's
        // actor and back. A pin may not cross a suspension: hold the snapshot, counted.
        // Borrowed: a retain of the pipe would write to memory every calling thread shares.
        let (cell, held) = _setup.unretainedPipe.with { pipe in
            (Unretained(pipe._member), pipe._currentSnapshot())
        }
        let key = key
        let state = _setup.state
        let sideData = _setup.sideData
        // `self` holds the pipe: a call in flight keeps its pipe, and so its chain, alive.
        defer { withExtendedLifetime(self) {} }
        defer { withExtendedLifetime(held) {} }
        let snapshot = Unretained(held)
        if held.isInstrumented {
            return try await Self._callInstrumented(
                snapshot, origin: cell, key: key, state: state, sideData: sideData,
                repeat each arguments)
        }
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = await Self._runAsync(
            snapshot: snapshot, origin: cell, key: key, state: state, sideData: sideData,
            arguments: (repeat each arguments), recording: &ignored)
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// The call with an instrument installed, apart so a plain call holds no span.
    @inlinable @inline(never)
    nonisolated(nonsending) static func _callInstrumented(
        _ snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        state: ActionState?, sideData: SideData, _ arguments: repeat each Argument
    ) async throws -> Result? {
        let span = _beginInstrumented(key, on: origin)
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = await _runAsync(
            snapshot: snapshot, origin: origin, key: key, state: state, sideData: sideData,
            arguments: (repeat each arguments), recording: &ignored)
        span?.end(outcome.error.map { .failed($0) } ?? .succeeded)
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the async action and reports what happened, without throwing: the error (a
    /// handler's, or `CancellationError`) is in ``ActionReport/error``, and
    /// ``ActionReport/thrownBy`` names the pipe that threw it.
    public nonisolated(nonsending) func report(_ arguments: repeat each Argument) async
        -> ActionReport<Result>
    {
        var outcomes: [ActionTrace.Outcome?]? = []
        let cell = Unretained(pipe._member)
        let held = pipe._currentSnapshot()
        defer { withExtendedLifetime(held) {} }
        let outcome = await Self._runAsync(
            snapshot: Unretained(held), origin: cell, key: key, state: _setup.state,
            sideData: _setup.sideData, arguments: (repeat each arguments), recording: &outcomes)
        return makeReport(outcome, outcomes, arguments: repeat each arguments)
    }

    /// The async driver of `_Dispatch`. Not counted towards the nesting limit: its frames
    /// live on the heap, and may change thread.
    @inlinable @inline(__always)
    nonisolated(nonsending) static func _runAsync(
        snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        state: ActionState?, sideData: consuming SideData, arguments: (repeat each Argument),
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) async -> _CallOutcome<Result, any Error> {
        var dispatch = _Dispatch<Kind, repeat each Argument, Result, any Error>(
            snapshot: snapshot, key: key, recording: &outcomes)
        if dispatch.hasNoHandler { return dispatch.call }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), state: state, sideData: sideData,
            origin: origin, key: key)
        // The task has not been suspended since cancellation was last checked.
        var checked = false
        while let (handler, target) = dispatch.next(
            _AsyncHandler<repeat each Argument, Result>.self, conditions: { $0.conditions },
            process: &process,
            cancellation: { handler in
                // Synchronous handlers in a row are one step: nothing suspends between them.
                if checked, handler.isSync { return nil }
                checked = true
                return Task.isCancelled ? CancellationError() : nil
            },
            recording: &outcomes)
        {
            // `target` is strong: a weak target stays alive while its handler works.
            do {
                let value: Result?
                if handler.with({ $0.isSync }) {
                    value = handler.with { $0.sync(&process) }
                } else {
                    checked = false
                    // The body is copied out, not called on the borrowed handler: across the
                    // await that would retain the handler. A copied body retains its context
                    // instead, which a closure without captures does not have.
                    if handler.with({ $0.hasPlain }) {
                        let body = handler.with { $0.plain }
                        value = try await body(&process)
                    } else {
                        let body = handler.with { $0.targeted.unsafelyUnwrapped.body }
                        value = try await body(target, &process)
                    }
                }
                dispatch.ran(value, stopped: process.isStopped, recording: &outcomes)
            } catch {
                dispatch.threw(error, recording: &outcomes)
            }
        }
        return dispatch.call
    }
}
