import ActionPipeConcurrency

struct _TreeItemOutcome {
    /// The batches of the item's children, in order, linked through `_TreeBatch.next`.
    var firstBatch: _TreeBatch?
    var lastBatch: _TreeBatch?
    var childCount = 0
    var failures: [OperationTreeFailure] = []
    /// The count slot (see `_TreePlanNode.countSlot`) of each failure, and of each retry.
    var failureSlots: [Int] = []
    var retrySlots: [Int] = []
    var succeeded = false
    var cancelled = false
    /// The run had stopped before the item's work began: the report counts it not started.
    var notStarted = false
    /// A call of the item that timed out and runs on (it ignores cancellation): the worker
    /// makes no other call until it returns (see `_TreeRunner.slowCall`).
    var straggler: (any _TreeStraggler)?
    var retries = 0
    /// The item's output, kept only when someone listens (for its `finished` event).
    var output: (any Sendable)?

    mutating func append(_ batch: _TreeBatch) {
        if let lastBatch { lastBatch.next = batch } else { firstBatch = batch }
        lastBatch = batch
        childCount += batch.count
    }
}
