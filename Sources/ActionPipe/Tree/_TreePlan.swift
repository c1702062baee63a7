/// One node of a run's plan: the tree as it was when the run started, with each node's
/// policy and concurrency slot resolved, so the run never locks a node.
final class _TreePlanNode: Sendable {
    let name: String
    let nodeID: ObjectIdentifier
    let objects: _TreeObjectsJob
    let work: _TreeWorkJob
    let children: [_TreePlanNode]
    /// Index into the run's per-node limits, or -1 when only the run's limit applies.
    let limitSlot: Int
    let retry: OperationTreeRetryPolicy

    init(
        _ node: any _TreeNodeErased, children: [_TreePlanNode], limitSlot: Int,
        retry: OperationTreeRetryPolicy
    ) {
        name = node.name
        nodeID = node.id
        objects = node.objects
        work = node.work
        self.children = children
        self.limitSlot = limitSlot
        self.retry = retry
    }

    /// The plan of `root`'s tree, and the limit of each slot. A node reached through two
    /// parents appears twice but shares one slot, so its limit holds over both places.
    static func make(_ root: any _TreeNodeErased, defaultRetry: OperationTreeRetryPolicy)
        -> (plan: _TreePlanNode, limits: [Int])
    {
        var slots: [ObjectIdentifier: Int] = [:]
        var limits: [Int] = []
        var path: Set<ObjectIdentifier> = []
        func build(_ node: any _TreeNodeErased) -> _TreePlanNode {
            path.insert(node.id)
            defer { path.remove(node.id) }
            var slot = -1
            if let limit = node.concurrencyLimit {
                if let known = slots[node.id] {
                    slot = known
                } else {
                    slot = limits.count
                    slots[node.id] = slot
                    limits.append(limit)
                }
            }
            // `addChild` refuses cycles, so the path check never drops an edge; it is here
            // so that a future way of adding children cannot turn a cycle into a hang.
            let children = node.childNodes.filter { !path.contains($0.id) }.map(build)
            return _TreePlanNode(
                node, children: children, limitSlot: slot, retry: node.retry ?? defaultRetry)
        }
        return (build(root), limits)
    }
}

/// One object of a run: the unit the workers pull from the ready queue.
///
/// `@unchecked Sendable`: `plan`, `object`, `parent` and `index` never change; `id` and
/// `pending` are only touched with the run's lock held; `output` is written by the one
/// worker running the item before it takes the lock to complete it, and read afterwards
/// under that lock.
final class _TreeWorkItem: @unchecked Sendable {
    /// `nil` for the run's root item, which stands for the object sent to the root node.
    let plan: _TreePlanNode?
    let object: any Sendable
    let parent: _TreeWorkItem?
    let index: Int
    var id = 0
    /// This item's own work (1 until it completes) plus its children not yet finished.
    var pending = 1
    var output: (any Sendable)?

    init(plan: _TreePlanNode?, object: any Sendable, parent: _TreeWorkItem?, index: Int) {
        self.plan = plan
        self.object = object
        self.parent = parent
        self.index = index
    }

    /// The item as events and failures show it (only built when someone listens).
    var info: OperationTreeItem {
        OperationTreeItem(
            node: plan?.name ?? "", nodeID: plan?.nodeID ?? ObjectIdentifier(self), id: id,
            parentID: parent?.plan == nil ? nil : parent?.id, index: index, object: object)
    }
}

/// A node's `objects`, erased. `nonisolated(nonsending)`: the erasing wrapper runs on its
/// caller's executor instead of hopping to the global one first (the provider's own closure
/// still hops); a hop per call is a measurable share of a trivial item's cost.
typealias _TreeObjectsJob =
    nonisolated(nonsending) @Sendable (any Sendable) async throws -> [any Sendable]

/// A node's `work`, erased (see `_TreeObjectsJob`).
typealias _TreeWorkJob =
    nonisolated(nonsending) @Sendable (any Sendable) async throws -> any Sendable
