/// How one call ended, as the dispatch loop (`_Dispatch`) returns it.
@usableFromInline
struct _CallOutcome<Result, Failure: Error> {
    /// The result of the last handler that returned.
    @usableFromInline var value: Result? = nil
    /// How many handlers ran (one that threw included); -1 when the call was refused for
    /// nesting too deep (`NestingLimitError`), which runs none. A sentinel, not a field of
    /// its own: one more stored property made calls copy and destroy the outcome through
    /// value witnesses.
    @usableFromInline var count = 0
    /// The index, in chain order, of the member whose handler stopped the call.
    @usableFromInline var stopper: Int? = nil
    /// The error that ended the call: a handler's, or cancellation.
    @usableFromInline var error: Failure? = nil
    /// The index of the member whose handler threw `error`; `nil` for cancellation.
    @usableFromInline var thrower: Int? = nil
    /// The chain's member names, for reports; empty for plain calls.
    @usableFromInline let names: [String]

    @inlinable
    init(names: [String]) { self.names = names }

    /// Whether the call was refused for nesting too deep.
    @inlinable
    var tooDeep: Bool {
        get { count < 0 }
        set { count = newValue ? -1 : 0 }
    }

    /// How many handlers ran.
    @inlinable
    var handlersRun: Int { Swift.max(count, 0) }

    /// Whether a handler stopped the call or an error ended it: no further handler runs.
    @inlinable
    var hasEnded: Bool { stopper != nil || error != nil }

    /// Why the handlers after the current one do not run, if the call has ended.
    @inlinable
    var endReason: SkipReason? {
        if stopper != nil { return .stoppedEarlier }
        if error != nil { return thrower == nil ? .cancelled : .earlierHandlerThrew }
        return nil
    }

    /// Records that the handler of `member` returned, and whether it stopped the call.
    @inlinable @inline(__always)
    mutating func ran(
        _ member: Int, stopped: Bool, recording outcomes: inout [ActionTrace.Outcome?]?
    ) {
        if stopped {
            stopper = member
            outcomes?[member] = .stopped
        } else {
            outcomes?[member] = .ran
        }
    }

    /// Records that the handler of `member` threw `error`, which ends the call.
    @inlinable
    mutating func threw(
        _ error: Failure, at member: Int, recording outcomes: inout [ActionTrace.Outcome?]?
    ) {
        self.error = error
        thrower = member
        outcomes?[member] = .threw(String(describing: error))
    }
}
