/// The full outcome of one call: its result, how many handlers ran, whether a handler
/// stopped it, the error that ended it, and the trace of every pipe. A report never throws:
/// a throwing or async call's error is in ``error``, and ``thrownBy`` names its pipe.
public struct ActionReport<Result> {
    /// The result of the last handler that ran, or `nil` when none ran or the call failed.
    public let value: Result?
    /// How many handlers ran.
    public let runCount: Int
    /// The name of the pipe whose handler stopped the call, or `nil` if none did.
    public let stoppedBy: String?
    /// The error that ended the call: a handler's, or `CancellationError` when an async
    /// call's task was cancelled before a handler started; `nil` when it completed.
    public let error: (any Error)?
    /// The pipe whose handler threw ``error``; `nil` when none threw (cancelled included).
    public let thrownBy: String?
    /// What every pipe of the chain did, in chain order.
    public let trace: ActionTrace

    /// Whether a handler stopped the call.
    public var wasStopped: Bool { stoppedBy != nil }

    /// Whether the call ended with an error (a handler threw, or it was cancelled).
    public var isFailure: Bool { error != nil }
}

extension ActionReport: Sendable where Result: Sendable {}
