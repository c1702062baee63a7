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
