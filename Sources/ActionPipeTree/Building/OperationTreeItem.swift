/// One object a node works on during a run, as events and failures name it.
///
/// Items are numbered in the order they became ready (the object sent to the root is
/// mapped to items 1, 2, …); `parentID` is the item whose output this one came from.
///
/// ```swift
/// for await event in run.events {
///     if case .started(let item, _) = event, item.belongs(to: recipe) {
///         print("fetching recipe \(item.object) (item \(item.id), child of \(item.parentID ?? 0))")
///     }
/// }
/// ```
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
    /// ```swift
    /// if item.belongs(to: recipe) { print("a recipe") }
    /// ```
    public func belongs<Input, Output>(to node: OperationTreeNode<Input, Output>) -> Bool {
        nodeID == ObjectIdentifier(node)
    }

    /// `node#id(object)`, e.g. `recipe#3(12)`.
    public var description: String { "\(node)#\(id)(\(object))" }
}
