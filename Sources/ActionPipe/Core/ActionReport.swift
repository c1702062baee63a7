/// The full outcome of one call: its result, how many handlers ran, whether a handler
/// stopped it, and the trace of every pipe.
///
/// ```swift
/// let report = pipe.someFunc.report(999, nil)
/// print(report.value as Any, report.handlersRun, report.stoppedBy as Any)
/// print(report.trace)
/// ```
public struct ActionReport<Result> {
    /// The result of the last handler that ran, or `nil` when none ran.
    public let value: Result?
    /// How many handlers ran.
    public let handlersRun: Int
    /// The name of the pipe whose handler stopped the call, or `nil` if none did.
    public let stoppedBy: String?
    /// What every pipe of the chain did, in chain order.
    public let trace: ActionTrace

    /// Whether a handler stopped the call.
    ///
    /// ```swift
    /// if report.wasStopped { print("stopped by", report.stoppedBy!) }
    /// ```
    public var wasStopped: Bool { stoppedBy != nil }
}

extension ActionReport: Sendable where Result: Sendable {}
