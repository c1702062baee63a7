/// How a run ended: its outcome, every failure, and counts.
///
/// ```swift
/// let report = await cookbook.run("a-cookbook")
/// if report.outcome == .completed && report.failures.isEmpty { print("all fetched") }
/// print(report)  // completed: 57 items succeeded, 0 failed, 0 retries, ...
/// ```
public struct OperationTreeReport: Sendable, CustomStringConvertible {
    /// Why the run ended.
    ///
    /// ```swift
    /// #expect(OperationTreeReport.Outcome.completed.description == "completed")
    /// ```
    public enum Outcome: Sendable, Equatable, CustomStringConvertible {
        /// Every item ran or failed; the whole tree is done.
        case completed
        /// The calling task or the run's handle was cancelled before the tree was done.
        case cancelled
        /// ``OperationTreeOptions/failFast`` was set and a failure stopped the run.
        case stoppedByFailure

        /// `completed`, `cancelled` or `stopped by a failure`.
        public var description: String {
            switch self {
            case .completed: "completed"
            case .cancelled: "cancelled"
            case .stoppedByFailure: "stopped by a failure"
            }
        }
    }

    /// Why the run ended.
    public let outcome: Outcome
    /// Every call that failed after its last attempt, in the order they gave up.
    public let failures: [OperationTreeFailure]
    /// Items whose work produced an output.
    public let succeededCount: Int
    /// Retries made (attempts after the first), over all calls.
    public let retryCount: Int
    /// Items that were ready but never started because the run stopped.
    public let notStartedCount: Int
    /// The most provider calls that ran at once.
    public let peakConcurrency: Int
    /// How many worker tasks the run started (for tests: never above the items that could
    /// run, nor the concurrency limit).
    var workersStarted = 0

    /// `true` when the whole tree ran with no failure.
    ///
    /// ```swift
    /// #expect(await OperationTreeNode("one", objects: { (n: Int) in [n] }, work: { $0 })
    ///     .run(1).isSuccess)
    /// ```
    public var isSuccess: Bool { outcome == .completed && failures.isEmpty }

    /// One line, then one line per failure.
    public var description: String {
        var text =
            "\(outcome): \(succeededCount) items succeeded, \(failures.count) failed, "
            + "\(retryCount) retries, \(notStartedCount) not started, peak concurrency \(peakConcurrency)"
        for failure in failures { text += "\n  \(failure)" }
        return text
    }
}
