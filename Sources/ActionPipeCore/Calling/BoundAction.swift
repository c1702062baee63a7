import ActionPipeConcurrency

/// An action bound to a pipe, called like a method: `pipe.someFunc(999, "hello")` for an
/// ``Action``, `try pipe.x(...)` for a ``ThrowingAction``, `try await pipe.x(...)` for an
/// ``AsyncAction``. A call runs, in chain order, every pipe of the chain that registered it.
///
/// ```swift
/// let result = pipe.someFunc(999, "hello")                     // Double?
/// let report = pipe.someFunc.report(999, "hello")              // result, trace, stop
/// pipe.someFunc.with(state: .start)(999, "hello")              // a call with a state
/// pipe.someFunc.with(Keys.label, "from the caller")(999, nil)  // with side data
/// ```
public struct BoundAction<Kind, each Argument, Result>: Sendable {
    // One reference, the rest trivial: a temporary `pipe.x` costs one retain and release.
    @usableFromInline var _setup: _CallSetup
    @usableFromInline let key: _ActionKey

    @inlinable var pipe: ActionPipe { _setup.pipe }

    /// The pipe's member (unretained: `self`, then the pinned snapshot, holds it) and a pin
    /// on its cache, empty when the cache is; the caller unpins.
    @inlinable @inline(__always)
    func _pinCached() -> (Unretained<_Member>, SnapshotSlot<_Snapshot>.Pin) {
        let member = _setup.unretainedPipe.with { Unretained($0._member) }
        return (member, member.with { $0.cache.pinReleasingNothing() })
    }

    /// ``_pinCached()``, refreshing an empty cache first.
    @inlinable @inline(__always)
    func _pin() -> (Unretained<_Member>, SnapshotSlot<_Snapshot>.Pin) {
        let (member, pin) = _pinCached()
        if pin.snapshot != nil { return (member, pin) }
        return (member, _setup.unretainedPipe.with { $0._repin(pin) })
    }

    @inlinable
    init(setup: _CallSetup, key: _ActionKey) {
        _setup = setup
        self.key = key
    }

    /// The same action, called with `state`: only handlers whose state shares a bit with
    /// it, and handlers without a state, run.
    @inlinable @inline(__always)
    public consuming func with(state: ActionState) -> Self {
        // Consuming, so `pipe.x.with(state: s)` changes the temporary in place, not a copy.
        _setup.state = state
        return self
    }

    /// The same action, called with `value` in its side data from the start.
    @inlinable
    public consuming func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value)
        -> Self
    {
        _setup.add(key, value)
        return self
    }

    /// The same action, called with `sideData` from the start.
    @inlinable
    public consuming func with(sideData: SideData) -> Self {
        _setup.set(sideData)
        return self
    }

    /// See ``Instrumentation``.
    @usableFromInline
    static func _beginInstrumented(_ key: _ActionKey, on member: Unretained<_Member>)
        -> _InstrumentedSpan?
    {
        Instrumentation.begin(.call, name: key.name, detail: member.with { $0.name })
    }

    /// Ends `span`: refused for nesting too deep, or succeeded.
    @usableFromInline
    static func _endInstrumented(_ span: _InstrumentedSpan, key: _ActionKey, tooDeep: Bool) {
        span.end(tooDeep ? .failed(key._nestingError) : .succeeded)
    }

    func makeReport<Failure>(
        _ outcome: _CallOutcome<Result, Failure>, _ outcomes: [ActionTrace.Outcome?]?,
        arguments: repeat each Argument
    ) -> ActionReport<Result> {
        var steps: [ActionTrace.Step] = []
        for (index, name) in outcome.names.enumerated() {
            let step = outcomes.flatMap { index < $0.count ? $0[index] : nil }
            steps.append(.init(pipe: name, outcome: step ?? .skipped(.notRegistered)))
        }
        return ActionReport(
            value: outcome.error == nil ? outcome.value : nil, runCount: outcome.handlersRun,
            stoppedBy: outcome.stopper.map { outcome.names[$0] },
            error: outcome.tooDeep ? key._nestingError : outcome.error,
            thrownBy: outcome.thrower.map { outcome.names[$0] },
            trace: ActionTrace(
                action: key.name, arguments: ActionTrace.describe(repeat each arguments),
                state: _setup.state, steps: steps))
    }
}

extension BoundAction where Kind == ActionKind.Sync {
    /// Calls the action: runs every pipe of the chain that registered it, in order.
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Complexity: O(h) for the h handlers of the action in the chain; pipes that did not
    ///   register it cost nothing.
    @inlinable @inline(__always)
    @discardableResult
    public consuming func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        let (cell, pin) = _pinCached()
        let key = key
        let state = _setup.state
        let sideData = _setup.sideData
        let unretainedPipe = _setup.unretainedPipe
        // `self` ends before the handlers (the pinned snapshot holds the members), so no
        // retain of the pipe spans the call; until then nothing may release.
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

    /// The call when the pipe's cache was empty; ends `pin`. Out of line, and given the
    /// pipe, not the bound action (destroyed through its pack metadata in the caller).
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

    /// The call on `snapshot` (pinned by the caller), instrumented; out of line.
    @inlinable @inline(never)
    static func _callInstrumented(
        _ snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        thread: ThreadRecord, state: ActionState?, sideData: SideData,
        _ arguments: repeat each Argument
    ) -> Result? {
        let span =
            snapshot.with { $0.isInstrumented } ? _beginInstrumented(key, on: origin) : nil
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
    /// print(pipe.someFunc.report(0, nil).trace)   // someFunc(0, nil): p1 ran → p2 skipped ...
    /// ```
    public func report(_ arguments: repeat each Argument) -> ActionReport<Result> {
        var outcomes: [ActionTrace.Outcome?]? = []
        let (cell, pin) = _pin()
        defer { cell.with { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        let outcome = Self._run(
            snapshot: snapshot, origin: cell, key: key, state: _setup.state,
            sideData: _setup.sideData, arguments: (repeat each arguments), recording: &outcomes)
        return makeReport(outcome, outcomes, arguments: repeat each arguments)
    }

    /// An untraced call of `key`'s handlers: the last result; sets `tooDeep` when the
    /// nesting limit refused it. `_Dispatch` cut to what a plain call needs, since a nested
    /// call adds this frame per level: conditions and targets are handled out of line.
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
            let handler = entry.pointee.handler.as(_SyncHandler<repeat each Argument, Result>.self)
            entry += 1
            // Out of line: a target held across the body would be another slot here.
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
        // Not a `defer`: one made the outcome go through value witnesses.
        depth.pointee &-= 1
        return process._upstream
    }

    /// Runs a targeted handler if admitted, holding the target; `false` when skipped.
    @inlinable @inline(never)
    static func _runTargeted(
        _ handler: Unretained<_SyncHandler<repeat each Argument, Result>>,
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>
    ) -> Bool {
        handler.with { handler in
            var target: AnyObject? = nil
            guard handler.skipReason(handler.conditions, &process, target: &target) == nil
            else { return false }
            process._upstream = handler.targeted.unsafelyUnwrapped.body(target, &process)
            return true
        }
    }

    /// The synchronous driver of `_Dispatch`; `outcomes` is `nil` for untraced calls.
    @inlinable @inline(__always)
    static func _run(
        snapshot: Unretained<_Snapshot>, origin: Unretained<_Member>, key: _ActionKey,
        state: ActionState?, sideData: consuming SideData, arguments: (repeat each Argument),
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> _CallOutcome<Result, Never> {
        var dispatch = _Dispatch<Kind, repeat each Argument, Result, Never>(
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
            _SyncHandler<repeat each Argument, Result>.self, conditions: { $0.conditions },
            process: &process, cancellation: { _ in nil }, recording: &outcomes)
        {
            let value = handler.with { handler in
                handler.hasPlain
                    ? handler.plain(&process)
                    : handler.targeted.unsafelyUnwrapped.body(target, &process)
            }
            dispatch.ran(value, stopped: process.isStopped, recording: &outcomes)
        }
        // Not a `defer`: one made the outcome go through value witnesses.
        depth.pointee &-= 1
        return dispatch.call
    }
}
