/// What one `objects` call gave one node for one parent item: the objects (in the typed
/// subclass, `_TreeTypedBatch`), and the run's bookkeeping for them. A run allocates per
/// batch, not per item (an item is a batch and an index), so a fan-out of 10 costs one
/// allocation where it cost ten.
///
/// `@unchecked Sendable`: `count` never changes; `plan`, `parent`, `parentIndex` and
/// `limitSlot` are set once, by the worker that made the batch, before it hands the batch to
/// the run's lock, and never change after; `firstID`, `pending`, `outputs` and `next` are only touched with the
/// run's lock held (or, for `next`, by the one worker that made the batch, before it hands it
/// to the lock).
@usableFromInline
class _TreeBatch: @unchecked Sendable {
    // The lock already makes these accesses exclusive; `@exclusivity(unchecked)` drops the
    // runtime's own check (a thread-local access set, about 10% of a trivial item's cost).
    /// `nil` for the run's root batch, whose one object is the input sent to the root node.
    @exclusivity(unchecked) final var plan: _TreePlanNode?
    /// The batch of the item whose output these objects came from, and that item's index.
    @exclusivity(unchecked) final var parent: _TreeBatch?
    @exclusivity(unchecked) final var parentIndex = 0
    /// The plan's `limitSlot`, copied here so that the run's lock touches the batch only.
    @exclusivity(unchecked) final var limitSlot = -1
    final let count: Int
    /// Items are numbered when their batch is queued, so a batch's numbers are consecutive.
    @exclusivity(unchecked) final var firstID = 0
    /// Per item: its own work (1 until it completes) plus its child items not yet finished.
    /// Empty until one of the items gets children: items of leaf nodes never need it.
    @exclusivity(unchecked) private final var pending: [Int] = []
    /// Per item, its output, kept for `finished` events; empty without a listener.
    @exclusivity(unchecked) private final var outputs: [(any Sendable)?] = []
    /// The next batch made by the same item (a list instead of an array: no allocation).
    @exclusivity(unchecked) final var next: _TreeBatch?

    @usableFromInline
    init(count: Int) {
        self.count = count
    }

    /// Object `index`, erased (for events, failures and retries; the common path reads the
    /// typed objects).
    func object(_ index: Int) -> any Sendable {
        fatalError("_TreeBatch.object(_:) is overridden by every batch the run creates")
    }

    /// Item `index` waits for `children` more items before it is finished.
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

/// A batch with its objects as the node's `objects` returned them, so the common path reads
/// an object without a cast or an existential box.
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
