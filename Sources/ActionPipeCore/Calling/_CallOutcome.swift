/// How one call ended, as `_Dispatch` returns it.
@usableFromInline
struct _CallOutcome<Result, Failure: Error> {
    /// The result of the last handler that returned.
    @usableFromInline var value: Result? = nil
    /// How many handlers ran (one that threw included); -1 when refused for nesting too
    /// deep (one more field would send the outcome through value witnesses).
    @usableFromInline var count = 0
    /// In chain order.
    @usableFromInline var stopper: Int? = nil
    /// A handler's, or cancellation.
    @usableFromInline var error: Failure? = nil
    /// `nil` for cancellation.
    @usableFromInline var thrower: Int? = nil
    /// Empty for plain calls.
    @usableFromInline let names: [String]

    @inlinable
    init(names: [String]) { self.names = names }

    @inlinable
    var tooDeep: Bool {
        get { count < 0 }
        set { count = newValue ? -1 : 0 }
    }

    @inlinable
    var handlersRun: Int { Swift.max(count, 0) }

    /// No further handler runs.
    @inlinable
    var hasEnded: Bool { stopper != nil || error != nil }

    /// Why later handlers do not run, once the call has ended.
    @inlinable
    var endReason: SkipReason? {
        if stopper != nil { return .stoppedEarlier }
        if error != nil { return thrower == nil ? .cancelled : .earlierHandlerThrew }
        return nil
    }
}
