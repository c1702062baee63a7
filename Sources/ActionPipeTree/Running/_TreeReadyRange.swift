/// Consecutive items of one batch waiting in the ready queue.
struct _TreeReadyRange {
    let batch: _TreeBatch
    var start: Int
    let end: Int
}
