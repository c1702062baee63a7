/// A provider call that failed after its last attempt. Its subtree was skipped; the rest of
/// the run went on (unless ``OperationTreeOptions/failFast`` is set).
public struct OperationTreeFailure: Error, Sendable, CustomStringConvertible {
    /// Which of the provider's two jobs failed.
    public enum Stage: Sendable, Equatable {
        /// `objects(for:)`: none of this node's objects for that input ran.
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
    /// What the failing call was given: the item's object, or (`.objects`) the input.
    public let object: any Sendable
    /// The error of the last attempt.
    public let error: any Error
    /// How many attempts were made.
    public let attempts: Int
    let nodeID: ObjectIdentifier

    /// What failed, why, and what happened to the subtree, for users: `node 'recipe': work
    /// on 42 failed after 3 attempts: offline; its subtree was skipped`.
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

    /// What a developer can change so the call succeeds: for a log, not for users.
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
    /// - Complexity: O(1).
    public func belongs<Input, Output>(to node: OperationTreeNode<Input, Output>) -> Bool {
        nodeID == ObjectIdentifier(node)
    }

    /// The ``summary``.
    public var description: String { summary }
}
