/// Consecutive items of one batch waiting in the ready queue: one entry per batch, not
/// per item.
struct _TreeReadyRange {
    let batch: _TreeBatch
    var start: Int
    let end: Int
}
