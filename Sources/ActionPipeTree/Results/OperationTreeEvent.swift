/// What happened during a run, as ``OperationTreeRun/events`` delivers it.
///
/// For one item: `started`, then per retry `retrying` and `started`, then `produced` or
/// `failed`, then `finished` once its whole subtree is done (post-order). An item's children
/// start only after its `produced`.
public enum OperationTreeEvent: Sendable, CustomStringConvertible {
    /// An attempt of an item's work started.
    case started(OperationTreeItem, attempt: Int)
    /// An item's work produced `output`; its children are about to start.
    case produced(OperationTreeItem, output: any Sendable)
    /// A provider call failed and will be tried again after `delay`.
    case retrying(OperationTreeFailure, delay: Duration)
    /// A provider call failed for the last time; the subtree is skipped.
    case failed(OperationTreeFailure)
    /// An item and its whole subtree are done; `output` is `nil` when its work failed.
    case finished(OperationTreeItem, output: (any Sendable)?)

    /// The item the event is about; `nil` for a failure of `objects`.
    ///
    /// - Complexity: O(1).
    public var item: OperationTreeItem? {
        switch self {
        case .started(let item, _), .produced(let item, _), .finished(let item, _): item
        case .retrying(let failure, _), .failed(let failure): failure.item
        }
    }

    /// The output, typed, when this is a `produced` event of `node`.
    ///
    /// - Complexity: O(1).
    public func output<Input, Output>(of node: OperationTreeNode<Input, Output>) -> Output? {
        guard case .produced(let item, let output) = self else { return nil }
        return item.belongs(to: node) ? output as? Output : nil
    }

    /// The output, typed, when this is a `finished` event of `node` whose work succeeded.
    ///
    /// - Complexity: O(1).
    public func finishedOutput<Input, Output>(of node: OperationTreeNode<Input, Output>)
        -> Output?
    {
        guard case .finished(let item, let output) = self else { return nil }
        return item.belongs(to: node) ? output as? Output : nil
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
