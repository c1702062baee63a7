import ActionPipeConcurrency

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

    /// The pipe's member, which holds the snapshot cache, and the call's pin on it (which
    /// holds no snapshot when the cache is empty); the caller unpins. The pipe is used
    /// unretained: `self` holds it until the pin is taken, and from then on the pinned
    /// snapshot holds the member (a snapshot holds its chain's members).
    @inlinable @inline(__always)
    func _pinCached() -> (Unretained<_Member>, SnapshotSlot<_Snapshot>.Pin) {
        let member = _setup.unretainedPipe.with { Unretained($0._member) }
        return (member, member.with { $0.cache.pinReleasingNothing() })
    }

    /// ``_pinCached()``, refreshing an empty cache first: the pin holds a snapshot.
    @inlinable @inline(__always)
    func _pin() -> (Unretained<_Member>, SnapshotSlot<_Snapshot>.Pin) {
        let (member, pin) = _pinCached()
        if pin.snapshot != nil { return (member, pin) }
        return (member, _setup.unretainedPipe.with { $0._repin(pin) })
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
    @inlinable @inline(__always)
    public consuming func with(state: ActionState) -> Self {
        // Consuming: `pipe.x.with(state: s)` moves the temporary in and changes it in
        // place, instead of copying it (a retain, and side data copied by value witness).
        _setup.state = state
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
        Self._beginInstrumented(key, on: Unretained(pipe._member))
    }

    /// Begins a call of `key` on the pipe of `member` with the installed instrument.
    @usableFromInline
    static func _beginInstrumented(_ key: _ActionKey, on member: Unretained<_Member>)
        -> _InstrumentedSpan?
    {
        Instrumentation.begin(.call, name: key.name, detail: member.with { $0.name })
    }

    /// Ends `span`, a call of `key` that was refused for nesting too deep, or succeeded.
    @usableFromInline
    static func _endInstrumented(_ span: _InstrumentedSpan, key: _ActionKey, tooDeep: Bool) {
        span.end(tooDeep ? .failed(key._nestingError) : .succeeded)
    }

    /// The report of a call that ended with `outcome`, recorded in `outcomes`.
    func makeReport<Failure>(
        _ outcome: _CallOutcome<Result, Failure>, _ outcomes: [ActionTrace.Outcome?]?,
        arguments: repeat each Argument
    ) -> ActionReport<Result> {
        var described: [String] = []
        for argument in repeat each arguments { described.append(ActionTrace.describe(argument)) }
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
            trace: ActionTrace(
                action: key.name, arguments: described, state: options.state, steps: steps))
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
    public consuming func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        let (cell, pin) = _pinCached()
        let key = key
        let state = _setup.state
        let sideData = _setup.sideData
        let unretainedPipe = _setup.unretainedPipe
        // Consuming, and ended before the handlers: from the pin on, the pinned snapshot
        // holds the members, so `pipe.x(…)` needs no retain of the pipe across the call,
        // which would be a write to a reference count every thread calling the pipe shares.
        // Up to the end of `self`, nothing may release an object or touch an atomic (the
        // pin is out of line), which is what lets the compiler drop that retain.
        guard let snapshot = pin.snapshot else {
            let pipe = unretainedPipe.retainedReleasingNothing()
            _ = consume self
            return Self._callRefreshing(
                pin, pipe: pipe, key: key, state: state, sideData: sideData,
                repeat each arguments)
        }
        _ = consume self
        defer { cell.with { $0.unpin(pin) } }
        if snapshot.with({ $0.isInstrumented }) {
            return Self._callInstrumented(
                snapshot, origin: cell, key: key, thread: pin.thread, state: state,
                sideData: sideData, repeat each arguments)
        }
        var tooDeep = false
        return Self._runPlain(
            snapshot: snapshot, origin: cell, key: key, thread: pin.thread, state: state,
            sideData: sideData, arguments: (repeat each arguments), tooDeep: &tooDeep)
    }

    /// The call when the pipe's cache was empty (`pin` holds no snapshot): refreshes it,
    /// then calls as usual; ends `pin`. Never inlined, so the plain call pays only the
    /// check, and given the pipe, retained by the caller, not the bound action (whose type
    /// over a parameter pack the compiler destroys through its metadata, from the
    /// caller's frame).
    @inlinable @inline(never)
    static func _callRefreshing(
        _ pin: SnapshotSlot<_Snapshot>.Pin, pipe: ActionPipe, key: _ActionKey,
        state: ActionState?, sideData: SideData, _ arguments: repeat each Argument
    ) -> Result? {
        let pin = pipe._repin(pin)
        defer { pipe._member.unpin(pin) }
        return _callInstrumented(
            pin.snapshot.unsafelyUnwrapped, origin: Unretained(pipe._member), key: key,
            thread: pin.thread, state: state, sideData: sideData, repeat each arguments)
    }

    /// The call on `snapshot` (pinned by the caller) between the installed instrument's
    /// begin and end, when there is one. Never inlined, so the plain call pays only the
    /// check.
    @inlinable @inline(never)
    static func _callInstrumented(
        _ snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        thread: ThreadRecord, state: ActionState?, sideData: SideData,
        _ arguments: repeat each Argument
    ) -> Result? {
        let span =
            snapshot.with { $0.isInstrumented } ? _beginInstrumented(key, on: origin) : nil
        // The plain loop, as without an instrument: a nested call's frames stay as small
        // (a debug build's are several kilobytes per level).
        var tooDeep = false
        let value = _runPlain(
            snapshot: snapshot, origin: origin, key: key, thread: thread, state: state,
            sideData: sideData, arguments: (repeat each arguments), tooDeep: &tooDeep)
        if let span { _endInstrumented(span, key: key, tooDeep: tooDeep) }
        return value
    }

    /// Calls the action and reports what happened: the result, how many handlers ran,
    /// which pipe stopped the call, and a trace of every pipe of the chain.
    ///
    /// ```swift
    /// let report = pipe.someFunc.report(0, nil)
    /// print(report.trace)   // someFunc(0, nil): p1 ran → p2 skipped (upstream is not Date) → ...
    /// ```
    public func report(_ arguments: repeat each Argument) -> ActionReport<Result> {
        var outcomes: [ActionTrace.Outcome?]? = []
        let (cell, pin) = _pin()
        defer { cell.with { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        let outcome = Self._run(
            snapshot: snapshot, origin: cell, key: key,
            options: options, arguments: (repeat each arguments), recording: &outcomes)
        return makeReport(outcome, outcomes, arguments: repeat each arguments)
    }

    /// Runs the handlers of `snapshot` for the action `key` in a call that is not traced
    /// (instrumented or not: the instrument wraps it), and returns the result of the last
    /// handler that ran; `tooDeep` is set when the nesting limit refused the call. `origin`
    /// must stay alive for the duration of the call; `thread` is the calling thread's record.
    ///
    /// The same decisions as `_Dispatch`, kept to what a plain call needs, because this loop
    /// is inlined into the caller, and a handler that calls an action again adds its whole
    /// frame to the stack at each level: the frame holds the process and a cursor, and the
    /// running value is the process's own upstream. Handlers with conditions or a target
    /// are decided out of line (`_Dispatch.admits`), and a handler with a target runs out
    /// of line (`_runTargeted`).
    @inlinable @inline(__always)
    static func _runPlain(
        snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        thread: ThreadRecord, state: ActionState?, sideData: consuming SideData,
        arguments: (repeat each Argument), tooDeep: inout Bool
    ) -> Result? {
        let (entries, range) = snapshot.with {
            ($0.entries, $0.range(for: key))
        }
        if range.isEmpty { return nil }
        guard let depth = _enterCall(on: thread) else {
            key._reportTooDeep()
            tooDeep = true
            return nil
        }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), state: state, sideData: sideData,
            origin: origin, key: key)
        var entry = entries + range.lowerBound
        let end = entries + range.upperBound
        repeat {
            // The snapshot owns the handler and the caller keeps the snapshot alive, so the
            // handler is used unretained.
            let handler = entry.pointee.handler.as(_SyncHandler<repeat each Argument, Result>.self)
            entry += 1
            // A handler with a target runs out of line: its target is held across its body,
            // which would be another slot in this frame.
            guard handler.with({ $0.hasPlain }) else {
                if _runTargeted(handler, &process), process._isStopped { break }
                continue
            }
            let runs = handler.with { handler in
                if handler.isUnconditional { return true }
                if handler.isSimple {
                    return handler.passesSimpleChecks(
                        process.state, hasUpstream: process._upstream != nil)
                }
                return _Dispatch<Kind, repeat each Argument, Result, Never>.admits(
                    handler, conditions: { $0.conditions }, process: &process)
            }
            if runs {
                process._upstream = handler.with { $0.plain(&process) }
                if process._isStopped { break }
            }
        } while entry < end
        // Not a `defer`: one made the call handle its outcome through value witnesses.
        depth.pointee &-= 1
        return process._upstream
    }

    /// Runs `handler`, one with a target, in the plain loop if it is admitted (its target
    /// resolved and held while it runs), leaving its result as the process's upstream;
    /// `false` when it was skipped.
    ///
    @inlinable @inline(never)
    static func _runTargeted(
        _ handler: Unretained<_SyncHandler<repeat each Argument, Result>>,
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>
    ) -> Bool {
        handler.with { handler in
            var target: AnyObject? = nil
            guard handler.skipReason(handler.conditions, &process, target: &target) == nil
            else { return false }
            process._upstream = _callTargeted(handler, target, &process)
            return true
        }
    }

    /// Calls the body of `handler`, one with a target, with `target`.
    @inlinable @inline(__always)
    static func _callTargeted(
        _ handler: _SyncHandler<repeat each Argument, Result>, _ target: AnyObject?,
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>
    ) -> Result? {
        handler.targeted.unsafelyUnwrapped.body(target, &process)
    }

    /// Runs the handlers of `snapshot` for the action `key`: the synchronous driver of the
    /// one dispatch loop (`_Dispatch`). `origin` must stay alive for the duration of the
    /// call. `outcomes` is `nil` for plain calls, so they pay one predictable branch per
    /// handler for tracing.
    @inlinable @inline(__always)
    static func _run(
        snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        options: borrowing _CallOptions, arguments: (repeat each Argument),
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> _CallOutcome<Result, Never> {
        var dispatch = _Dispatch<Kind, repeat each Argument, Result, Never>(
            snapshot: snapshot, key: key, recording: &outcomes)
        if dispatch.hasNoHandler { return dispatch.call }
        guard let depth = _enterCall(snapshot.with { $0.depthKey }) else {
            // A plain call is reported here; a traced one carries the error in its report.
            if outcomes == nil { key._reportTooDeep() }
            dispatch.call.tooDeep = true
            return dispatch.call
        }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), options: options, origin: origin, key: key)
        while let (handler, target) = dispatch.next(
            _SyncHandler<repeat each Argument, Result>.self, conditions: { $0.conditions },
            process: &process, cancellation: { _ in nil }, recording: &outcomes)
        {
            let value = handler.with { handler in
                handler.hasPlain
                    ? handler.plain(&process) : _callTargeted(handler, target, &process)
            }
            dispatch.ran(value, stopped: process.isStopped, recording: &outcomes)
        }
        // Not a `defer`: one made the call handle its outcome through value witnesses.
        depth.pointee &-= 1
        return dispatch.call
    }
}
