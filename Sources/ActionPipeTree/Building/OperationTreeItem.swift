/// One object a node works on during a run, as events and failures name it.
public struct OperationTreeItem: Sendable, CustomStringConvertible {
    /// The name of the node.
    public let node: String
    /// The identity of the node, for ``belongs(to:)``.
    public let nodeID: ObjectIdentifier
    /// The item's number in this run, from 1.
    public let id: Int
    /// The number of the item whose output this item came from; `nil` for the root's items.
    public let parentID: Int?
    /// The position of the object in what the node's `objects` returned, from 0.
    public let index: Int
    /// The object itself, as `objects` returned it.
    public let object: any Sendable

    /// Whether the item is one of `node`'s.
    ///
    /// - Complexity: O(1).
    public func belongs<Input, Output>(to node: OperationTreeNode<Input, Output>) -> Bool {
        nodeID == ObjectIdentifier(node)
    }

    /// `node#id(object)`, e.g. `recipe#3(12)`.
    public var description: String { "\(node)#\(id)(\(object))" }
}
