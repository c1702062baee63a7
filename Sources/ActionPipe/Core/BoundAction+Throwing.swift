import ActionPipeKernel

extension BoundAction where Kind: ThrowingActionKind {
    /// Calls the throwing action: runs every pipe of the chain that registered it, in
    /// order, until a handler throws.
    ///
    /// ```swift
    /// do {
    ///     let number = try pipe.parse("forty-two")
    /// } catch .notANumber(let text) {
    ///     print("not a number:", text)
    /// }
    /// ```
    ///
    /// - Returns: The result of the last handler that ran, or `nil` when none ran.
    /// - Throws: The first error a handler throws, unchanged; no later handler runs. A call
    ///   nested deeper than ``NestingLimitError/depthLimit`` runs no handler and returns
    ///   `nil` (the error's type is the action's), reporting ``NestingLimitError``.
    @inlinable
    @discardableResult
    public func callAsFunction(_ arguments: repeat each Argument) throws(Kind.Failure)
        -> Result?
    {
        var ignored: [ActionTrace.Outcome?]? = nil
        let (cell, pin) = _pin()
        defer { cell._withUnsafeGuaranteedRef { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        let outcome = snapshot._withUnsafeGuaranteedRef { snapshot in
            Self._runThrowing(
                snapshot: snapshot, origin: .passUnretained(pipe._member), key: key,
                options: options, arguments: (repeat each arguments), recording: &ignored)
        }
        if let error = outcome.error { throw error }
        return outcome.value
    }

    /// Calls the throwing action and reports what happened, without throwing: the error,
    /// if any, is in ``ActionReport/error``, and ``ActionReport/thrownBy`` names its pipe.
    ///
    /// ```swift
    /// let report = pipe.parse.report("forty-two")
    /// print(report.thrownBy ?? "-")   // "parser"
    /// print(report.trace)             // parse: parser threw notANumber("forty-two") → ...
    /// ```
    public func report(_ arguments: repeat each Argument) -> ActionReport<Result> {
        var outcomes: [ActionTrace.Outcome?]? = []
        let (cell, pin) = _pin()
        defer { cell._withUnsafeGuaranteedRef { $0.unpin(pin) } }
        let snapshot = pin.snapshot.unsafelyUnwrapped
        let outcome = snapshot._withUnsafeGuaranteedRef { snapshot in
            Self._runThrowing(
                snapshot: snapshot, origin: .passUnretained(pipe._member), key: key,
                options: options, arguments: (repeat each arguments), recording: &outcomes)
        }
        return makeReport(outcome, outcomes)
    }

    /// The dispatch loop of throwing actions: the synchronous loop, ended by a throw.
    // Always inlined: Swift does not specialise functions over parameter packs, so a
    // call that is not inlined into its concrete caller runs generic code (metadata
    // lookups, value witnesses) several times slower.
    @inlinable @inline(__always)
    static func _runThrowing(
        snapshot: _Snapshot, origin: Unmanaged<_Member>, key: _ActionKey, options: _CallOptions,
        arguments: (repeat each Argument), recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> _CallOutcome<Result, Kind.Failure> {
        if outcomes != nil {
            outcomes = Array(repeating: nil, count: snapshot.names.count)
        }
        var call = _CallOutcome<Result, Kind.Failure>(names: outcomes == nil ? [] : snapshot.names)
        let range = snapshot.range(for: key)
        if range.isEmpty { return call }
        guard let depth = _enterCall(snapshot.depthKey) else {
            // A plain call is reported here; a traced one carries the error in its report.
            if outcomes == nil { key._reportTooDeep() }
            call.tooDeep = true
            return call
        }
        var process = ActionProcess<Kind, repeat each Argument, Result>(
            arguments: (repeat each arguments), options: options, origin: origin, key: key)
        for index in range {
            let entry = snapshot.entries[index]
            if let reason = call.endReason {
                outcomes?[entry.member] = .skipped(reason)
                continue
            }
            // The snapshot, which the caller keeps alive, owns the handler: no retain.
            unowned(unsafe) let handler = unsafeDowncast(
                entry.handler.takeUnretainedValue(),
                to: _ThrowingHandler<Kind, repeat each Argument, Result>.self)
            process._upstream = call.value
            var target: AnyObject? = nil
            if let reason = handler.skipDecision(handler.conditions, &process, target: &target) {
                outcomes?[entry.member] = .skipped(reason)
                continue
            }
            call.count += 1
            do throws(Kind.Failure) {
                call.value = try handler.body(target, &process)
            } catch {
                call.threw(error, at: entry.member, recording: &outcomes)
                continue
            }
            call.ran(entry.member, stopped: process.isStopped, recording: &outcomes)
        }
        depth.pointee &-= 1
        return call
    }
}
