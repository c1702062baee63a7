/// One node of a run's plan: the tree as it was when the run started, policies and slots
/// resolved, so the run never locks a node.
final class _TreePlanNode: Sendable {
    let name: String
    let nodeID: ObjectIdentifier
    let objects: _TreeObjectsJob
    let work: _TreeWorkJob
    let retry: OperationTreeRetryPolicy
    /// Index into the run's per-node counts and limits: one per node, however many places
    /// it has.
    let countSlot: Int
    /// `countSlot` when the node has a limit of its own, else -1.
    let limitSlot: Int
    let children: [_TreePlanNode]

    private init(
        _ node: any _TreeNodeErased, retry: OperationTreeRetryPolicy, countSlot: Int,
        children: [_TreePlanNode]
    ) {
        name = node.name
        nodeID = node.id
        objects = node.objects
        work = node.work
        self.retry = retry
        self.countSlot = countSlot
        limitSlot = node.concurrencyLimit == nil ? -1 : countSlot
        self.children = children
    }

    /// The plan of `root`'s tree, and its nodes by count slot.
    static func make(_ root: any _TreeNodeErased, defaultRetry: OperationTreeRetryPolicy)
        -> (plan: _TreePlanNode, nodes: [_TreeRunState.Node])
    {
        var countSlots: [ObjectIdentifier: Int] = [:]
        var nodes: [_TreeRunState.Node] = []
        var path: Set<ObjectIdentifier> = []
        func build(_ node: any _TreeNodeErased) -> _TreePlanNode {
            let countSlot = countSlots[node.id, default: nodes.count]
            if countSlot == nodes.count {
                countSlots[node.id] = countSlot
                nodes.append(.init(id: node.id, limit: node.concurrencyLimit ?? 0))
            }
            path.insert(node.id)
            defer { path.remove(node.id) }
            // `addChild` refuses cycles; the path check keeps any other way from hanging.
            let children = node.childNodes.filter { !path.contains($0.id) }.map(build)
            return _TreePlanNode(
                node, retry: node.retry ?? defaultRetry, countSlot: countSlot, children: children)
        }
        return (build(root), nodes)
    }
}
