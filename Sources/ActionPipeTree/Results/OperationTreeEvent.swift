/// What happened during a run, as ``OperationTreeRun/events`` delivers it.
///
/// For one item the order is: `started` (attempt 1), then for each retry `retrying` and
/// `started` again, then `produced` or `failed`, then, once every item below it is done too,
/// `finished` (post-order: an item's `finished` comes after the `finished` of all its
/// descendants). An item's children start only after its `produced`.
///
/// ```swift
/// let run = cookbook.start("a-cookbook")
/// for await event in run.events {
///     if let recipe = event.finishedOutput(of: recipeNode) {
///         show(recipe)  // the recipe and everything below it is ready
///     }
/// }
/// ```
public enum OperationTreeEvent: Sendable, CustomStringConvertible {
    /// An attempt of an item's work started.
    case started(OperationTreeItem, attempt: Int)
    /// An item's work produced `output`; its children are about to start.
    case produced(OperationTreeItem, output: any Sendable)
    /// A provider call failed and will be tried again after `delay`.
    case retrying(OperationTreeFailure, delay: Duration)
    /// A provider call failed for the last time; the subtree is skipped.
    case failed(OperationTreeFailure)
    /// An item and its whole subtree are done (the per-object completion). `output` is
    /// `nil` when the item's work failed.
    case finished(OperationTreeItem, output: (any Sendable)?)

    /// The item the event is about (for `retrying` and `failed` of stage `.objects`: `nil`).
    ///
    /// ```swift
    /// if let item = event.item { print(item.node) }
    /// ```
    public var item: OperationTreeItem? {
        switch self {
        case .started(let item, _), .produced(let item, _), .finished(let item, _): item
        case .retrying(let failure, _), .failed(let failure): failure.item
        }
    }

    /// The output, typed, when this is a `produced` event of `node`.
    ///
    /// ```swift
    /// if let recipe = event.output(of: recipeNode) { print("fetched \(recipe.name)") }
    /// ```
    public func output<Input, Output>(of node: OperationTreeNode<Input, Output>) -> Output? {
        guard case .produced(let item, let output) = self, item.belongs(to: node) else {
            return nil
        }
        return output as? Output
    }

    /// The output, typed, when this is a `finished` event of `node` whose work succeeded:
    /// the object and its whole subtree are ready.
    ///
    /// ```swift
    /// if let recipe = event.finishedOutput(of: recipeNode) { show(recipe) }
    /// ```
    public func finishedOutput<Input, Output>(of node: OperationTreeNode<Input, Output>)
        -> Output?
    {
        guard case .finished(let item, let output) = self, item.belongs(to: node) else {
            return nil
        }
        return output as? Output
    }

    /// One line: `started recipe#2(7) attempt 1`, `finished recipe#2(7)`, ….
    public var description: String {
        switch self {
        case .started(let item, let attempt): "started \(item) attempt \(attempt)"
        case .produced(let item, let output): "produced \(item) -> \(output)"
        case .retrying(let failure, let delay):
            "retrying \(failure.item.map(String.init(describing:)) ?? failure.node) after "
                + "attempt \(failure.attempts) (\(failure.error)), waiting \(delay)"
        case .failed(let failure): "failed \(failure)"
        case .finished(let item, let output): "finished \(item)\(output == nil ? " (failed)" : "")"
        }
    }
}
