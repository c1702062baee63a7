import ActionPipeConcurrency

/// The one dispatch loop of the core: it walks an action's handlers in chain order, decides
/// for each whether it runs (the call has ended, its state or conditions fail, its target is
/// gone), records every step for reports, and hands each handler that runs to its driver.
/// The three drivers (synchronous, throwing and async calls) differ only in how they invoke
/// a handler: plainly, with `try`, or with `try await`. A plain synchronous call (not
/// traced, not instrumented) takes a leaner copy of this loop, `BoundAction._runPlain`,
/// with the same decisions (``admits(_:conditions:process:target:)``).
///
/// ```swift
/// var dispatch = _Dispatch<...>(snapshot: snapshot, key: key, recording: &outcomes)
/// while let step = dispatch.next(_SyncHandler<...>.self, ..., process: &process, ...) {
///     dispatch.ran(invoke(step), stopped: process.isStopped, recording: &outcomes)
/// }
/// return dispatch.call
/// ```
///
/// Why everything here is `@inlinable @inline(__always)`: the caller's module specialises
/// it for its concrete types (generic code over parameter packs looks up metadata at every
/// step), and a loop that is not inlined adds a frame to every nested call. The plain
/// synchronous call uses a leaner copy of the loop (`BoundAction._runPlain`) for the same
/// reason; it shares the skip decision (``admits(_:conditions:process:target:)``).
@usableFromInline
struct _Dispatch<Kind, each Argument, Result, Failure: Error> {
    /// How the call is going: its value, count, stopper and error.
    @usableFromInline var call: _CallOutcome<Result, Failure>
    /// The snapshot's entries; the caller keeps the snapshot alive.
    @usableFromInline let entries: UnsafeMutablePointer<_Snapshot.Entry>
    /// The next entry of the action's group, and the end of the group.
    @usableFromInline var index: Int
    @usableFromInline let end: Int
    /// The member of the handler last handed out, for its outcome.
    @usableFromInline var member = 0

    /// A dispatch of the handlers of `key` in `snapshot`, which the caller keeps alive (it
    /// is read unretained). When `outcomes` is not `nil` the call is traced: it gets one
    /// outcome per pipe of the chain.
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

    /// Whether no pipe of the chain registered the action.
    @inlinable
    var hasNoHandler: Bool { index == end }

    /// The next handler that runs, and its target (a strong reference, so a weak target
    /// stays alive while its handler works); `nil` when the group is done. Every handler
    /// passed over is recorded with the reason.
    ///
    /// - Parameters:
    ///   - type: The handler class of the action's kind.
    ///   - conditions: The handler's conditions (read only when it has some).
    ///   - cancellation: The error that ends the call before `handler`, if any: an async
    ///     call's `CancellationError`; always `nil` for synchronous calls.
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
            // The snapshot owns the handler and the caller keeps the snapshot alive, so the
            // handler is used unretained: no reference counting per handler.
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
            let skip = handler.with { handler in
                handler.skipDecision(conditions(handler), &process, target: &target)
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

    /// Records that the handler last handed out returned `value`.
    @inlinable @inline(__always)
    mutating func ran(
        _ value: Result?, stopped: Bool, recording outcomes: inout [ActionTrace.Outcome?]?
    ) {
        call.value = value
        call.ran(member, stopped: stopped, recording: &outcomes)
    }

    /// Records that the handler last handed out threw `error`, which ends the call.
    @inlinable @inline(__always)
    mutating func threw(_ error: Failure, recording outcomes: inout [ActionTrace.Outcome?]?) {
        call.threw(error, at: member, recording: &outcomes)
    }
}

extension _Dispatch {
    /// Whether `handler`, one with conditions and no target, runs in the call `process`
    /// describes (its upstream value already set): the full skip decision, for the plain
    /// synchronous call.
    ///
    /// Out of line, so that the conditions, the skip reason and the values they need stay
    /// out of the frame of the code that makes the call, which a nested call adds to the
    /// stack at each level.
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
