/// A provider call that failed after its last attempt: the node, the object, the error and
/// the number of attempts. The object's subtree was skipped; the rest of the run went on
/// (unless ``OperationTreeOptions/failFast`` is set).
///
/// ```swift
/// let report = await cookbook.run("a-cookbook")
/// for failure in report.failures {
///     print(failure.summary)  // node 'recipe': work on 42 failed after 3 attempts: ...
///     log.debug(failure.developerHint)  // what a developer can change
/// }
/// ```
///
/// Its description is ``summary``: what failed and what happened to the subtree, fit to
/// show a program's users. Advice for the program's developer is ``developerHint``.
public struct OperationTreeFailure: Error, Sendable, CustomStringConvertible {
    /// Which of the provider's two jobs failed.
    ///
    /// ```swift
    /// if failure.stage == .objects { print("could not list the children") }
    /// ```
    public enum Stage: Sendable, Equatable {
        /// `objects(for:)`: mapping the parent's output to this node's objects. None of
        /// this node's objects for that input ran.
        case objects
        /// `work(on:)`: the work for one object. Its subtree did not run.
        case work
    }

    /// The name of the node whose provider failed.
    public let node: String
    /// Which job failed.
    public let stage: Stage
    /// The item whose work failed (stage `.work`); `nil` for stage `.objects`.
    public let item: OperationTreeItem?
    /// What the failing call was given: the item's object (`.work`) or the parent's output,
    /// or the object sent to the root (`.objects`).
    public let object: any Sendable
    /// The error of the last attempt.
    public let error: any Error
    /// How many attempts were made.
    public let attempts: Int
    /// The identity of the failing node, for ``belongs(to:)``.
    let nodeID: ObjectIdentifier

    init(
        node: String, nodeID: ObjectIdentifier, stage: Stage, item: OperationTreeItem?,
        object: any Sendable, error: any Error, attempts: Int
    ) {
        self.node = node
        self.nodeID = nodeID
        self.stage = stage
        self.item = item
        self.object = object
        self.error = error
        self.attempts = attempts
    }

    /// What failed, why, and what happened to the subtree, in words fit for a program's
    /// users: `node 'recipe': work on 42 failed after 3 attempts: offline; its subtree was
    /// skipped`. No advice to a developer (see ``developerHint``).
    ///
    /// ```swift
    /// for failure in report.failures { print(failure.summary) }
    /// ```
    ///
    /// - Complexity: O(n) in the length of the error's description.
    public var summary: String {
        let what = stage == .work ? "work on" : "objects for"
        let plural = attempts == 1 ? "attempt" : "attempts"
        let why: String
        if case .timedOut(_, let after) = error as? OperationTreeError {
            why = "timed out after \(after)"
        } else {
            why = "\(error)"
        }
        return "node '\(node)': \(what) \(object) failed after \(attempts) \(plural): \(why); "
            + "its subtree was skipped"
    }

    /// What a developer can change so the call succeeds: for a log or a debug build, not
    /// for the program's users.
    ///
    /// ```swift
    /// #if DEBUG
    /// for failure in report.failures { print(failure.developerHint) }
    /// #endif
    /// ```
    ///
    /// - Complexity: O(1).
    public var developerHint: String {
        if case .timedOut = error as? OperationTreeError {
            return "node '\(node)': raise OperationTreeOptions.itemTimeout, or make the work "
                + "finish or honour cancellation"
        }
        return "node '\(node)': retry with OperationTreeOptions.retry (or the node's own "
            + "retry policy), or fix the provider"
    }

    /// Whether the failing call was one of `node`'s.
    ///
    /// ```swift
    /// let jobFailures = report.failures.filter { $0.belongs(to: job) }
    /// ```
    ///
    /// - Complexity: O(1).
    public func belongs<Input, Output>(to node: OperationTreeNode<Input, Output>) -> Bool {
        nodeID == ObjectIdentifier(node)
    }

    /// The ``summary``.
    public var description: String { summary }
}
