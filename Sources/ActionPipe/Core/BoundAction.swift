/// An action bound to a pipe, called like a method: `pipe.someFunc(999, "hello")`.
///
/// You get one from the pipe's dynamic member lookup; calling it runs, in chain order from
/// the head, every pipe of the pipe's chain that registered the action.
///
/// ```swift
/// let result = pipe.someFunc(999, "hello")                     // Double?
/// let report = pipe.someFunc.report(999, "hello")              // result, trace, stop
/// pipe.someFunc.with(state: .start)(999, "hello")              // a call with a state
/// pipe.someFunc.with(Keys.label, "from the caller")(999, nil)  // with side data
/// ```
public struct BoundAction<each Argument, Result>: Sendable {
    @usableFromInline let pipe: ActionPipe
    @usableFromInline let key: _ActionKey
    @usableFromInline var options: _CallOptions

    @usableFromInline
    init(pipe: ActionPipe, key: _ActionKey, options: _CallOptions) {
        self.pipe = pipe
        self.key = key
        self.options = options
    }

    /// Calls the action: runs every pipe of the chain that registered it, in order.
    ///
    /// ```swift
    /// let result = pipe3.someFunc(999, "hello")
    /// ```
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Complexity: O(h), where h is the number of handlers registered for the action in
    ///   the chain; pipes that did not register it cost nothing.
    @inlinable
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) -> Result? {
        var ignored: [ActionTrace.Outcome?]? = nil
        return _dispatch((repeat each arguments), recording: &ignored).value
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
        let (value, count, stopper, names) = _dispatch(
            (repeat each arguments), recording: &outcomes)
        var steps: [ActionTrace.Step] = []
        for (index, name) in names.enumerated() {
            let outcome = outcomes.flatMap { index < $0.count ? $0[index] : nil }
            steps.append(.init(pipe: name, outcome: outcome ?? .skipped(.notRegistered)))
        }
        return ActionReport(
            value: value, handlersRun: count, stoppedBy: stopper.map { names[$0] },
            trace: ActionTrace(action: key.name, state: options.state, steps: steps))
    }

    /// The same action, called with `state`: only handlers whose state shares a bit with
    /// it, and handlers without a state, run.
    ///
    /// ```swift
    /// pipe.someFunc.with(state: [.start, .success])(0, nil)
    /// ```
    public func with(state: ActionState) -> Self {
        var copy = self
        copy.options.state = state
        return copy
    }

    /// The same action, called with `value` in its side data from the start.
    ///
    /// ```swift
    /// pipe.someFunc.with(Keys.label, "hello")(0, nil)
    /// ```
    public func with<Value: Sendable>(_ key: SideDataKey<Value>, _ value: Value) -> Self {
        var copy = self
        copy.options.sideData[key] = value
        return copy
    }

    /// The same action, called with `sideData` from the start.
    ///
    /// ```swift
    /// pipe.someFunc.with(sideData: SideData(Keys.label, "hello"))(0, nil)
    /// ```
    public func with(sideData: SideData) -> Self {
        var copy = self
        copy.options.sideData = sideData
        return copy
    }

    /// The dispatch loop shared by plain and reported calls. `recording` is `nil` for
    /// plain calls, so they pay one predictable branch per handler for tracing.
    @inlinable
    func _dispatch(
        _ arguments: (repeat each Argument), recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> (value: Result?, count: Int, stopper: Int?, names: [String]) {
        Self._run(
            snapshot: pipe._snapshot.load(), origin: .passUnretained(pipe._member), key: key,
            options: options, arguments: (repeat each arguments), recording: &outcomes)
    }

    /// Runs the handlers of `snapshot` for the action `key`. `origin` must stay alive for
    /// the duration of the call.
    @inlinable
    static func _run(
        snapshot: _Snapshot, origin: Unmanaged<_Member>, key: _ActionKey, options: _CallOptions,
        arguments: (repeat each Argument), recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> (value: Result?, count: Int, stopper: Int?, names: [String]) {
        if outcomes != nil {
            outcomes = Array(repeating: nil, count: snapshot.names.count)
        }
        guard let entries = snapshot.entries(for: key) else {
            return (nil, 0, nil, outcomes == nil ? [] : snapshot.names)
        }
        var process = ActionProcess<repeat each Argument, Result>(
            arguments: (repeat each arguments), state: options.state, sideData: options.sideData,
            origin: origin, key: key)
        var result: Result? = nil
        var count = 0
        var stopper: Int? = nil
        for entry in entries {
            if stopper != nil {
                outcomes?[entry.member] = .skipped(.stoppedEarlier)
                continue
            }
            let handler = unsafeDowncast(
                entry.handler, to: _Handler<repeat each Argument, Result>.self)
            if let handlerState = handler.state, let callState = process.state,
                !handlerState.runs(in: callState)
            {
                outcomes?[entry.member] = .skipped(
                    .stateMismatch(handler: handlerState, call: callState))
                continue
            }
            process._upstream = result
            if handler.hasConditions, let reason = handler.failedCondition(&process) {
                outcomes?[entry.member] = .skipped(reason)
                continue
            }
            let target = handler.target.resolved
            if target.released {
                outcomes?[entry.member] = .skipped(.targetReleased)
                continue
            }
            result = handler.body(target.object, &process)
            count += 1
            if process.isStopped {
                stopper = entry.member
                outcomes?[entry.member] = .stopped
            } else {
                outcomes?[entry.member] = .ran
            }
        }
        return (result, count, stopper, outcomes == nil ? [] : snapshot.names)
    }
}
