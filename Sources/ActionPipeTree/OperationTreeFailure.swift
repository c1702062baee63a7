/// A provider call that failed after its last attempt: the node, the object, the error and
/// the number of attempts. The object's subtree was skipped; the rest of the run went on
/// (unless ``OperationTreeOptions/failFast`` is set).
///
/// ```swift
/// let report = await cookbook.run("a-cookbook")
/// for failure in report.failures {
///     print(failure)  // node 'recipe' gave up on 42 after 3 attempts (work): timeout ...
/// }
/// ```
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

    /// What failed, why, and what happened to the subtree.
    public var description: String {
        let what = stage == .work ? "work on" : "objects for"
        let plural = attempts == 1 ? "attempt" : "attempts"
        return "node '\(node)': \(what) \(object) failed after \(attempts) \(plural): \(error); "
            + "its subtree was skipped (retry with OperationTreeOptions.retry, or fix the provider)"
    }
}
