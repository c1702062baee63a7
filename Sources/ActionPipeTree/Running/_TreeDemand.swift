import ActionPipeConcurrency

/// What the task group's owner is asked to do.
enum _TreeDemand: Sendable {
    /// Start one more worker.
    case worker
    /// Cancel the calls running (fail fast).
    case cancelAll
}

/// What a completion hands back to its worker.
struct _TreeCompletion {
    var next: _TreeWorkItem?
    var wake: _TreeWakeList?
    var startWorkers = 0
    var isOver = false
    var cancelAll = false
}
