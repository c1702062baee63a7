/// How a run ended: its outcome, every failure, and counts.
public struct OperationTreeReport: Sendable, CustomStringConvertible {
    /// Why the run ended.
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

    /// What one node's items did in a run: ``OperationTreeReport/counts(for:)``.
    public struct NodeCounts: Sendable, Equatable, CustomStringConvertible {
        /// The node's items whose work produced an output.
        public var succeeded: Int
        /// The node's calls (work and `objects`) that failed after their last attempt.
        public var failed: Int
        /// Retries of the node's calls (attempts after the first).
        public var retries: Int
        /// The node's items that were ready but never started because the run stopped.
        public var notStarted: Int

        /// Counts with the given values, zero by default.
        ///
        /// - Complexity: O(1).
        public init(succeeded: Int = 0, failed: Int = 0, retries: Int = 0, notStarted: Int = 0) {
            self.succeeded = succeeded
            self.failed = failed
            self.retries = retries
            self.notStarted = notStarted
        }

        /// `5 succeeded, 1 failed, 2 retries, 0 not started`.
        public var description: String {
            "\(succeeded) succeeded, \(failed) failed, \(retries) retries, \(notStarted) not started"
        }
    }

    /// Why the run ended.
    public let outcome: Outcome
    /// Every call that failed after its last attempt, in the order they gave up.
    public let failures: [OperationTreeFailure]
    /// Items whose work produced an output, of every node.
    public let succeededCount: Int
    /// Retries made (attempts after the first), over all calls.
    public let retryCount: Int
    /// Items that were ready but never started because the run stopped.
    public let notStartedCount: Int
    /// The most provider calls that ran at once.
    public let peakConcurrency: Int
    /// Worker tasks started, for tests.
    var workersStarted = 0
    /// Per node that counted anything.
    var nodeCounts: [ObjectIdentifier: NodeCounts] = [:]

    /// What `node`'s items did in this run, over all its places; all zero if it did not run.
    ///
    /// - Complexity: O(1).
    public func counts<Input, Output>(for node: OperationTreeNode<Input, Output>) -> NodeCounts {
        nodeCounts[ObjectIdentifier(node)] ?? NodeCounts()
    }

    /// `true` when the whole tree ran with no failure.
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
