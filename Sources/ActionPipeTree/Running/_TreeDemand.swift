import ActionPipeConcurrency

/// What running one item gave, handed to `_TreeRunState.complete` in one piece.
/// What the task group's owner is asked to do.
enum _TreeDemand: Sendable {
    /// Start one more worker.
    case worker
    /// Cancel the calls running (fail fast).
    case cancelAll
}

/// What a completion hands back to its worker: its next item, the parked workers to wake,
/// how many workers to start, and whether the run is over.
struct _TreeCompletion {
    var next: _TreeWorkItem?
    var wake: _TreeWakeList?
    var startWorkers = 0
    var isOver = false
    var cancelAll = false
}
