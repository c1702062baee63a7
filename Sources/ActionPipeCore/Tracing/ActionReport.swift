/// The full outcome of one call: its result, how many handlers ran, whether a handler
/// stopped it, the error that ended it, and the trace of every pipe.
///
/// A report never throws: for a throwing or async action, the error a plain call would
/// throw is in ``error``, and ``thrownBy`` names the pipe whose handler threw it.
///
/// ```swift
/// let report = pipe.someFunc.report(999, nil)
/// print(report.value as Any, report.runCount, report.stoppedBy as Any)
/// print(report.trace)
/// ```
public struct ActionReport<Result> {
    /// The result of the last handler that ran, or `nil` when none ran or the call failed.
    public let value: Result?
    /// How many handlers ran.
    public let runCount: Int
    /// The name of the pipe whose handler stopped the call, or `nil` if none did.
    public let stoppedBy: String?
    /// The error that ended the call: the one a handler threw, or `CancellationError` when
    /// an async call's task was cancelled before a handler started; `nil` when it
    /// completed.
    ///
    /// ```swift
    /// let report = await pipe.fetchTitle.report(7)
    /// if let error = report.error { print(report.thrownBy ?? "cancelled", error) }
    /// ```
    public let error: (any Error)?
    /// The name of the pipe whose handler threw ``error``; `nil` when no handler threw
    /// (including a cancelled call).
    public let thrownBy: String?
    /// What every pipe of the chain did, in chain order.
    public let trace: ActionTrace

    /// Whether a handler stopped the call.
    ///
    /// ```swift
    /// if report.wasStopped { print("stopped by", report.stoppedBy!) }
    /// ```
    public var wasStopped: Bool { stoppedBy != nil }

    /// Whether the call ended with an error (a handler threw, or it was cancelled).
    ///
    /// ```swift
    /// if report.isFailure { print(report.error!) }
    /// ```
    public var isFailure: Bool { error != nil }
}

extension ActionReport: Sendable where Result: Sendable {}
