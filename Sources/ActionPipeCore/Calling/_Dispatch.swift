import ActionPipeConcurrency

/// The dispatch loop: walks an action's handlers in chain order, decides whether each
/// runs, records every step for reports, and hands each that runs to its driver (sync,
/// throwing, async). Inlined, so the caller specialises the pack generics and a nested call
/// adds no frame. An untraced sync call uses a leaner copy, `BoundAction._runPlain`.
@usableFromInline
struct _Dispatch<Kind, each Argument, Result, Failure: Error> {
    @usableFromInline var call: _CallOutcome<Result, Failure>
    /// The caller keeps the snapshot alive.
    @usableFromInline let entries: UnsafeMutablePointer<_Snapshot.Entry>
    @usableFromInline var index: Int
    @usableFromInline let end: Int
    /// The member of the handler last handed out.
    @usableFromInline var member = 0

    /// With non-`nil` `outcomes` the call is traced: one outcome per pipe of the chain.
    @inlinable @inline(__always)
    init(
        snapshot: Unretained<_Snapshot>, key: _ActionKey,
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) {
        let (entries, range) = snapshot.with {
            ($0.entries, $0.range(for: key))
        }
        self.entries = entries
        index = range.lowerBound
        end = range.upperBound
        call = _CallOutcome(names: [])
        if outcomes != nil {
            let names = snapshot.with { $0.names }
            outcomes = Array(repeating: nil, count: names.count)
            call = _CallOutcome(names: names)
        }
    }

    @inlinable
    var hasNoHandler: Bool { index == end }

    /// The next handler that runs, and its target (strong, so a weak target stays alive
    /// while its handler works); `nil` when the group is done. Records every handler passed
    /// over. `cancellation` gives the error that ends the call before `handler`, if any.
    @inlinable @inline(__always)
    mutating func next<Handler: _AnyHandler>(
        _ type: Handler.Type,
        conditions: (Handler) -> [_Condition<Kind, repeat each Argument, Result>],
        process: inout ActionProcess<Kind, repeat each Argument, Result>,
        cancellation: (_ handler: Handler) -> Failure?,
        recording outcomes: inout [ActionTrace.Outcome?]?
    ) -> (handler: Unretained<Handler>, target: AnyObject?)? {
        while index < end {
            let entry = entries[index]
            index &+= 1
            let handler = entry.handler.as(Handler.self)
            if !call.hasEnded, let error = handler.with(cancellation) {
                call.error = error
            }
            if call.hasEnded {
                // Only a report needs the handlers the ended call passes over.
                guard outcomes != nil else { return nil }
                outcomes?[entry.member] = .skipped(call.endReason.unsafelyUnwrapped)
                continue
            }
            process._upstream = call.value
            var target: AnyObject? = nil
            // One test when unconditional, two inline when simple, else the full check.
            let skip = handler.with { handler -> SkipReason? in
                if handler.isUnconditional { return nil }
                if handler.isSimple,
                    handler.passesSimpleChecks(process.state, hasUpstream: process._upstream != nil)
                {
                    return nil
                }
                return handler.skipReason(conditions(handler), &process, target: &target)
            }
            if let skip {
                outcomes?[entry.member] = .skipped(skip)
                continue
            }
            member = entry.member
            call.count &+= 1
            return (handler, target)
        }
        return nil
    }

    @inlinable @inline(__always)
    mutating func ran(
        _ value: Result?, stopped: Bool, recording outcomes: inout [ActionTrace.Outcome?]?
    ) {
        call.value = value
        if stopped {
            call.stopper = member
            outcomes?[member] = .stopped
        } else {
            outcomes?[member] = .ran
        }
    }

    /// Ends the call.
    @inlinable @inline(__always)
    mutating func threw(_ error: Failure, recording outcomes: inout [ActionTrace.Outcome?]?) {
        call.error = error
        call.thrower = member
        outcomes?[member] = .threw(String(describing: error))
    }
}

extension _Dispatch {
    /// Whether `handler` (with conditions, no target) runs, for `_runPlain`: out of line,
    /// so the conditions stay out of the caller's frame.
    @inlinable @inline(never)
    static func admits<Handler: _AnyHandler>(
        _ handler: Handler,
        conditions: (Handler) -> [_Condition<Kind, repeat each Argument, Result>],
        process: inout ActionProcess<Kind, repeat each Argument, Result>
    ) -> Bool {
        var target: AnyObject? = nil
        return handler.skipReason(conditions(handler), &process, target: &target) == nil
    }
}
