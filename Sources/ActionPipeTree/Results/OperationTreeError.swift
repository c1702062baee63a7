/// What went wrong building or running an operation tree, other than a provider's error.
public enum OperationTreeError: Error, Equatable, CustomStringConvertible {
    /// `parent.addChild(child)` would make a cycle; the tree is unchanged.
    case cycle(parent: String, child: String)
    /// A provider's call did not return within ``OperationTreeOptions/itemTimeout``. It is
    /// retried like any other error.
    case timedOut(node: String, after: Duration)

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .cycle(let parent, let child):
            "adding node '\(child)' as a child of '\(parent)' would make a cycle ('\(parent)' "
                + "is '\(child)' or one of its descendants); an operation tree must be a tree: "
                + "make a new node for the repeated step"
        case .timedOut(let node, let after):
            "node '\(node)': the provider did not return within \(after); raise "
                + "OperationTreeOptions.itemTimeout, or make the work finish or honour cancellation"
        }
    }
}
