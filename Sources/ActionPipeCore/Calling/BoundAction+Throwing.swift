import ActionPipeConcurrency

extension BoundAction where Kind: ThrowingActionKind {
    /// Calls the throwing action: runs every pipe of the chain that registered it, in
    /// order, until a handler throws.
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Throws: The first error a handler throws, unchanged; no later handler runs. A call
    ///   nested deeper than ``NestingLimitError/depthLimit`` runs no handler and returns
    ///   `nil` (the error's type is the action's), reporting ``NestingLimitError``.
    @inlinable @inline(__always)
    @discardableResult
    public consuming func callAsFunction(_ arguments: repeat each Argument) throws(Kind.Failure)
        -> Result?
    {
        // As the synchronous call: `self` ends before the handlers run.
        let (cell, pin) = _pinCached()
        let key = key
        let state = _setup.state
        let sideData = _setup.sideData
        let unretainedPipe = _setup.unretainedPipe
        guard let snapshot = pin.snapshot else {
            let pipe = unretainedPipe.retainedReleasingNothing()
            _ = consume self
            return try Self._callThrowingRefreshing(
                pin, pipe: pipe, key: key, state: state, sideData: sideData,
                repeat each arguments)
        }
        _ = consume self
        defer { cell.with { $0.unpin(pin) } }
        if snapshot.with({ $0.isInstrumented }) {
            return try Self._callThrowingInstrumented(
                snapshot, origin: cell, key: key, state: state, sideData: sideData,
                repeat each arguments)
        }
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = Self._runThrowing(
            snapshot: snapshot, origin: cell, key: key, state: state, sideData: sideData,
            arguments: (repeat each arguments), recording: &ignored)
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// The throwing call when the pipe's cache was empty; ends `pin`. Out of line.
    @inlinable @inline(never)
    static func _callThrowingRefreshing(
        _ pin: SnapshotSlot<_Snapshot>.Pin, pipe: ActionPipe, key: _ActionKey,
        state: ActionState?, sideData: SideData, _ arguments: repeat each Argument
    ) throws(Kind.Failure) -> Result? {
        let pin = pipe._repin(pin)
        defer { pipe._member.unpin(pin) }
        return try _callThrowingInstrumented(
            pin.snapshot.unsafelyUnwrapped, origin: Unretained(pipe._member), key: key,
            state: state, sideData: sideData, repeat each arguments)
    }

    /// The throwing call on `snapshot` (pinned by the caller), instrumented when installed;
    /// out of line, so a plain call holds no span. Also the uninstrumented cache-miss path.
    @inlinable @inline(never)
    static func _callThrowingInstrumented(
        _ snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        state: ActionState?, sideData: SideData, _ arguments: repeat each Argument
    ) throws(Kind.Failure) -> Result? {
        var ignored: [ActionTrace.Outcome?]? = nil
        let span =
            snapshot.with { $0.isInstrumented } ? _beginInstrumented(key, on: origin) : nil
        let outcome = _runThrowing(
            snapshot: snapshot, origin: origin, key: key, state: state, sideData: sideData,
            arguments: (repeat each arguments), recording: &ignored)
        if let error = outcome.error {
            span?.end(.failed(error))
            throw error
        }
        if let span { _endInstrumented(span, key: key, tooDeep: outcome.tooDeep) }
        return outcome.value
    }

    /// Calls the throwing action and reports what happened, without throwing: the error is
    /// ``ThrowingActionReport/failure``, typed, and ``ActionReport/thrownBy`` names its pipe.
    ///
    /// ```swift
    /// let report = pipe.parse.report("forty-two")
    /// if case .notANumber(let text)? = report.failure { print("not a number:", text) }
    /// ```
    public func report(_ arguments: repeat each Argument) -> ThrowingActionReport<
        Result, Kind.Failure
    > {
        var outcomes: [ActionTrace.Outcome?]? = []
        let (cell, pin) = _pin()
        defer { cell.with { $0.unpin(pin) } }
        let outcome = Self._runThrowing(
            snapshot: pin.snapshot.unsafelyUnwrapped, origin: cell, key: key,
            state: _setup.state, sideData: _setup.sideData, arguments: (repeat each arguments),
            recording: &outcomes)
        return ThrowingActionReport(
            report: makeReport(outcome, outcomes, arguments: repeat each arguments),
            failure: outcome.error)
    }

    /// The throwing driver of `_Dispatch`.
    @inlinable @inline(__always)
    static func _runThrowing(
        snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        state: ActionState?, sideData: consuming SideData, arguments: (repeat each Argument),
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> _CallOutcome<Result, Kind.Failure> {
        var dispatch = _Dispatch<Kind, repeat each Argument, Result, Kind.Failure>(
            snapshot: snapshot, key: key, recording: &outcomes)
        if dispatch.hasNoHandler { return dispatch.call }
        guard let depth = _enterCall(snapshot.with { $0.depthKey }) else {
            // An untraced call is reported here; a traced one carries the error in its report.
            if outcomes == nil { key._reportTooDeep() }
            dispatch.call.tooDeep = true
            return dispatch.call
        }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), state: state, sideData: sideData,
            origin: origin, key: key)
        while let (handler, target) = dispatch.next(
            _ThrowingHandler<Kind, repeat each Argument, Result>.self,
            conditions: { $0.conditions }, process: &process, cancellation: { _ in nil },
            recording: &outcomes)
        {
            do throws(Kind.Failure) {
                let value = try handler.with { (handler) throws(Kind.Failure) in
                    try handler.body(target, &process)
                }
                dispatch.ran(value, stopped: process.isStopped, recording: &outcomes)
            } catch {
                dispatch.threw(error, recording: &outcomes)
            }
        }
        depth.pointee &-= 1
        return dispatch.call
    }
}
