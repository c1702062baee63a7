import ActionPipeConcurrency

/// What running one item gave, handed to `_TreeRunState.complete` in one piece.
struct _TreeItemOutcome {
    /// The batches of the item's children, in order, linked through `_TreeBatch.next`.
    var firstBatch: _TreeBatch?
    var lastBatch: _TreeBatch?
    var childCount = 0
    var failures: [OperationTreeFailure] = []
    var failureSlots: [Int] = []
    var retrySlots: [Int] = []
    var succeeded = false
    var cancelled = false
    /// The run had stopped before the item's work began: the report counts it not started.
    var notStarted = false
    var retries = 0
    /// The item's output, kept only for a listener's `finished` event.
    var output: (any Sendable)?

    mutating func append(_ batch: _TreeBatch) {
        if let lastBatch { lastBatch.next = batch } else { firstBatch = batch }
        lastBatch = batch
        childCount += batch.count
    }
}
