import ActionPipeKernel

/// An action bound to a pipe, called like a method: `pipe.someFunc(999, "hello")`.
///
/// You get one from the pipe's dynamic member lookup; calling it runs, in chain order from
/// the head, every pipe of the pipe's chain that registered the action. How it is called
/// depends on the action's ``ActionKind``: `pipe.x(...)` for an ``Action``,
/// `try pipe.x(...)` for a ``ThrowingAction``, `try await pipe.x(...)` for an
/// ``AsyncAction``.
///
/// ```swift
/// let result = pipe.someFunc(999, "hello")                     // Double?
/// let report = pipe.someFunc.report(999, "hello")              // result, trace, stop
/// pipe.someFunc.with(state: .start)(999, "hello")              // a call with a state
/// pipe.someFunc.with(Keys.label, "from the caller")(999, nil)  // with side data
/// ```
public struct BoundAction<Kind, each Argument, Result>: Sendable {
    // The pipe (and any out-of-line side data) behind one reference, the rest trivial:
    // a temporary `pipe.x` then costs one retain and one release, done in place.
    @usableFromInline var _setup: _CallSetup
    @usableFromInline let key: _ActionKey

    @inlinable var pipe: ActionPipe { _setup.pipe }

    /// The pipe's member, which holds the snapshot cache, and the call's pin on it; the
    /// caller unpins. The pipe is used unretained: `self` holds it for the whole call.
    @inlinable @inline(__always)
    func _pin() -> (Unmanaged<_Member>, SnapshotSlot<_Snapshot>.Pin) {
        Unmanaged.passUnretained(_setup.pipe)._withUnsafeGuaranteedRef { pipe in
            (Unmanaged.passUnretained(pipe._member), pipe._pinSnapshot())
        }
    }
    @inlinable var options: _CallOptions { _setup.options }

    @inlinable
    init(setup: _CallSetup, key: _ActionKey) {
        _setup = setup
        self.key = key
    }

    /// The same action, called with `state`: only handlers whose state shares a bit with
    /// it, and handlers without a state, run.
    ///
    /// ```swift
    /// pipe.someFunc.with(state: [.start, .success])(0, nil)
    /// ```
    @inlinable
    public consuming func with(state: ActionState) -> Self {
        // Consuming: `pipe.x.with(state: s)` moves the temporary in and changes it in
        // place, instead of copying it (a retain, and side data copied by value witness).
        _setup.options.state = state
        return self
    }

    /// The same action, called with `value` in its side data from the start.
    ///
    /// ```swift
    /// pipe.someFunc.with(Keys.label, "hello")(0, nil)
    /// ```
    @inlinable
    public consuming func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value)
        -> Self
    {
        _setup.add(key, value)
        return self
    }

    /// The same action, called with `sideData` from the start.
    ///
    /// ```swift
    /// pipe.someFunc.with(sideData: SideData(Keys.label, "hello"))(0, nil)
    /// ```
    @inlinable
    public consuming func with(sideData: SideData) -> Self {
        _setup.set(sideData)
        return self
    }

    /// The error of a call refused for nesting too deep.
    @usableFromInline
    func _nestingError() -> NestingLimitError { key._nestingError }

    /// Begins this call with the installed instrument (see ``Instrumentation``).
    @usableFromInline
    func _beginInstrumented() -> _InstrumentedSpan? {
        Instrumentation.begin(.call, name: key.name, detail: pipe.name)
    }

    /// The report of a call that ended with `outcome`, recorded in `outcomes`.
    func makeReport<Failure>(
        _ outcome: _CallOutcome<Result, Failure>, _ outcomes: [ActionTrace.Outcome?]?
    ) -> ActionReport<Result> {
        var steps: [ActionTrace.Step] = []
        for (index, name) in outcome.names.enumerated() {
            let step = outcomes.flatMap { index < $0.count ? $0[index] : nil }
            steps.append(.init(pipe: name, outcome: step ?? .skipped(.notRegistered)))
        }
        return ActionReport(
            value: outcome.error == nil ? outcome.value : nil, runCount: outcome.handlersRun,
            stoppedBy: outcome.stopper.map { outcome.names[$0] },
            error: outcome.tooDeep ? _nestingError() : outcome.error,
            thrownBy: outcome.thrower.map { outcome.names[$0] },
            trace: ActionTrace(action: key.name, state: options.state, steps: steps))
    }
}

extension BoundAction where Kind == ActionKind.Sync {
    /// Calls the action: runs every pipe of the chain that registered it, in order.
    ///
    /// ```swift
    /// let result = pipe3.someFunc(999, "hello")
    /// ```
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Complexity: O(h), where h is the number of handlers registered for the action in
    ///   the chain; pipes that did not register it cost nothing.
    @inlinable @inline(__always)
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        var ignored: [ActionTrace.Outcome?]? = nil
        let (cell, pin) = _pin()
        defer { cell._withUnsafeGuaranteedRef { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        if snapshot._withUnsafeGuaranteedRef({ $0.isInstrumented }) {
            return _callInstrumented(snapshot, repeat each arguments)
        }
        return Self._run(
            snapshot: snapshot, origin: .passUnretained(pipe._member), key: key,
            options: options, arguments: (repeat each arguments), recording: &ignored
        ).value
    }

    /// The call with an instrument installed: the same dispatch on `snapshot` (pinned by the
    /// caller), between its begin and end. Never inlined, so the plain call pays only the
    /// check.
    @inlinable @inline(never)
    func _callInstrumented(
        _ snapshot: Unmanaged<_Snapshot>, _ arguments: repeat each Argument
    ) -> Result? {
        let span = _beginInstrumented()
        var ignored: [ActionTrace.Outcome?]? = nil
        let outcome = Self._run(
            snapshot: snapshot, origin: .passUnretained(pipe._member),
            key: key, options: options, arguments: (repeat each arguments), recording: &ignored)
        span?.end(outcome.tooDeep ? .failed(_nestingError()) : .succeeded)
        return outcome.value
    }

    /// Calls the action and reports what happened: the result, how many handlers ran,
    /// which pipe stopped the call, and a trace of every pipe of the chain.
    ///
    /// ```swift
    /// let report = pipe.someFunc.report(0, nil)
    /// print(report.trace)   // someFunc: p1 ran → p2 skipped (upstream is not Date) → ...
    /// ```
    public func report(_ arguments: repeat each Argument) -> ActionReport<Result> {
        var outcomes: [ActionTrace.Outcome?]? = []
        let (cell, pin) = _pin()
        defer { cell._withUnsafeGuaranteedRef { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        let outcome = Self._run(
            snapshot: snapshot, origin: .passUnretained(pipe._member), key: key,
            options: options, arguments: (repeat each arguments), recording: &outcomes)
        return makeReport(outcome, outcomes)
    }

    /// Runs the handlers of `snapshot` for the action `key`: the synchronous driver of the
    /// one dispatch loop (`_Dispatch`). `origin` must stay alive for the duration of the
    /// call. `outcomes` is `nil` for plain calls, so they pay one predictable branch per
    /// handler for tracing.
    @inlinable @inline(__always)
    static func _run(
        snapshot: Unmanaged<_Snapshot>, origin: Unmanaged<_Member>, key: _ActionKey,
        options: borrowing _CallOptions, arguments: (repeat each Argument),
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> _CallOutcome<Result, Never> {
        var dispatch = _Dispatch<Kind, repeat each Argument, Result, Never>(
            snapshot: snapshot, key: key, recording: &outcomes)
        if dispatch.hasNoHandler { return dispatch.call }
        guard let depth = _enterCall(snapshot._withUnsafeGuaranteedRef { $0.depthKey }) else {
            // A plain call is reported here; a traced one carries the error in its report.
            if outcomes == nil { key._reportTooDeep() }
            dispatch.call.tooDeep = true
            return dispatch.call
        }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), options: options, origin: origin, key: key)
        while let (handler, target) = dispatch.next(
            _SyncHandler<repeat each Argument, Result>.self, conditions: { $0.conditions },
            process: &process, cancellation: { nil }, recording: &outcomes)
        {
            let value = handler._withUnsafeGuaranteedRef { handler in
                handler.hasPlain
                    ? handler.plain(&process) : handler.body.unsafelyUnwrapped(target, &process)
            }
            dispatch.ran(value, stopped: process.isStopped, recording: &outcomes)
        }
        // Not a `defer`: one made the call handle its outcome through value witnesses.
        depth.pointee &-= 1
        return dispatch.call
    }
}
