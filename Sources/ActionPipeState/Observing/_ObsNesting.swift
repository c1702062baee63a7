import ActionPipeConcurrency

/// Runs `body` one delivery level deeper, or reports a cycle and skips it when the thread is
/// already `depthLimit` levels deep. For deliveries that read no observer list (`.initial`).
func _obsNested(_ label: String, _ body: () -> Void) {
    let depth = NestingDepth.counter(.delivery)
    let level = depth.pointee
    guard level < ObservationCycleError.depthLimit else {
        ObservationCycleError._report(.init(property: label, depth: level + 1))
        return
    }
    depth.pointee = level &+ 1
    body()
    depth.pointee = level
}
