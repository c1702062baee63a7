/// One node of a run's plan: the tree as it was when the run started, policies and slots
/// resolved, so the run never locks a node.
final class _TreePlanNode: Sendable {
    let name: String
    let nodeID: ObjectIdentifier
    let jobs: _TreeJobs
    let children: [_TreePlanNode]
    /// Index into the run's per-node limits, or -1 when only the run's limit applies.
    let limitSlot: Int
    let retry: OperationTreeRetryPolicy
    /// Index into the run's per-node counts: one per node, however many places it has.
    let countSlot: Int

    init(
        _ node: any _TreeNodeErased, children: [_TreePlanNode], limitSlot: Int,
        retry: OperationTreeRetryPolicy, countSlot: Int
    ) {
        name = node.name
        nodeID = node.id
        jobs = node.jobs
        self.children = children
        self.limitSlot = limitSlot
        self.retry = retry
        self.countSlot = countSlot
    }

    /// The plan of `root`'s tree, the limit of each slot, and the node of each count slot.
    /// A node under two parents shares one slot of each kind over both places.
    static func make(_ root: any _TreeNodeErased, defaultRetry: OperationTreeRetryPolicy)
        -> (plan: _TreePlanNode, limits: [Int], nodeIDs: [ObjectIdentifier])
    {
        var countSlots: [ObjectIdentifier: Int] = [:]
        var nodeIDs: [ObjectIdentifier] = []
        var slots: [ObjectIdentifier: Int] = [:]
        var limits: [Int] = []
        var path: Set<ObjectIdentifier> = []
        func build(_ node: any _TreeNodeErased) -> _TreePlanNode {
            path.insert(node.id)
            defer { path.remove(node.id) }
            let countSlot = countSlots[node.id] ?? nodeIDs.count
            if countSlot == nodeIDs.count {
                countSlots[node.id] = countSlot
                nodeIDs.append(node.id)
            }
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
            // `addChild` refuses cycles; the path check keeps any other way from hanging.
            let children = node.childNodes.filter { !path.contains($0.id) }.map(build)
            return _TreePlanNode(
                node, children: children, limitSlot: slot, retry: node.retry ?? defaultRetry,
                countSlot: countSlot)
        }
        let plan = build(root)
        return (plan, limits, nodeIDs)
    }
}
