/// What one `objects` call gave one node for one parent item, and the run's bookkeeping for
/// it (an item is a batch and an index). `@unchecked Sendable`: `plan`, `parent` and
/// `parentIndex` are set once before the batch reaches the run's lock; the rest is touched
/// only under that lock.
@usableFromInline
class _TreeBatch: @unchecked Sendable {
    /// `nil` for the run's root batch, whose one object is the input sent to the root node.
    @exclusivity(unchecked) final var plan: _TreePlanNode?
    /// The batch of the item whose output these objects came from, and that item's index.
    @exclusivity(unchecked) final var parent: _TreeBatch?
    @exclusivity(unchecked) final var parentIndex = 0
    final let count: Int
    /// Numbered when the batch is queued, so a batch's numbers are consecutive.
    @exclusivity(unchecked) final var firstID = 0
    /// Per item: its own work (1 until done) plus its unfinished child items; empty until an
    /// item gets children.
    @exclusivity(unchecked) private final var pending: [Int] = []
    /// Per item, its output for `finished` events; empty without a listener.
    @exclusivity(unchecked) private final var outputs: [(any Sendable)?] = []

    @usableFromInline
    init(count: Int) {
        self.count = count
    }

    func object(_ index: Int) -> any Sendable {
        fatalError("_TreeBatch.object(_:) is overridden by every batch the run creates")
    }

    final func addPending(_ index: Int, _ children: Int) {
        if pending.isEmpty { pending = Array(repeating: 1, count: count) }
        pending[index] += children
    }

    /// Counts one part of item `index` done; returns whether the item is now finished.
    final func finishOne(_ index: Int) -> Bool {
        if pending.isEmpty { return true }  // it never had children: its work was all
        pending[index] -= 1
        return pending[index] == 0
    }

    final func setOutput(_ index: Int, _ output: any Sendable) {
        if outputs.isEmpty { outputs = Array(repeating: nil, count: count) }
        outputs[index] = output
    }

    final func output(_ index: Int) -> (any Sendable)? {
        outputs.isEmpty ? nil : outputs[index]
    }
}

/// A batch with its objects typed, so the common path reads one without a cast or a box.
@usableFromInline
final class _TreeTypedBatch<Item: Sendable>: _TreeBatch, @unchecked Sendable {
    @usableFromInline let items: [Item]

    @usableFromInline
    init(_ items: [Item]) {
        self.items = items
        super.init(count: items.count)
    }

    override func object(_ index: Int) -> any Sendable { items[index] }
}

/// One object of a run: the unit the workers run.
struct _TreeWorkItem: Sendable {
    let batch: _TreeBatch
    let index: Int

    var plan: _TreePlanNode? { batch.plan }
    var object: any Sendable { batch.object(index) }

    /// The item as events and failures show it. Reads numbers set under the run's lock
    /// before the item was handed out.
    var info: OperationTreeItem {
        let parent = batch.parent
        return OperationTreeItem(
            node: plan?.name ?? "", nodeID: plan?.nodeID ?? ObjectIdentifier(batch),
            id: batch.firstID + index,
            parentID: parent?.plan == nil ? nil : (parent?.firstID ?? 0) + batch.parentIndex,
            index: index, object: object)
    }
}
