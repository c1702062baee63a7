/// The hazard records of observable state: per thread, its nesting depth of deliveries (cycle
/// detection) and, per depth, the observer list that delivery reads.
///
/// A set reads its property's observer list under the property's lock and calls the observers
/// after unlocking, without retaining the list. Instead, still under the lock, it writes the
/// list's address into its thread's slot for the current depth, and clears the slot when the
/// delivery ends. A writer that replaces the list (observe, cancel) swaps it under the same lock
/// and frees the old one only once no thread's slot holds it; else it leaves it retired for
/// the last delivery to free. The lock orders the slot's write before any later writer's scan,
/// so a set pays no atomic read-modify-write for the list: only plain stores to memory no
/// other thread writes (a retain and release of the list cost two).
///
/// Each property copies this constant once, at its creation: a global of the module read from
/// a client's specialised code costs a call to its addressor.
let _obsHazards = _HazardDomain(slots: ObservationCycleError.depthLimit)

/// Runs `body` one delivery level deeper, or reports a cycle and skips it when the thread is
/// already `depthLimit` levels deep. For deliveries that read no observer list (`.initial`).
func _obsNested(_ label: String, _ body: () -> Void) {
    let thread = _obsHazards.record()
    let depth = thread.depth
    guard depth < ObservationCycleError.depthLimit else {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
        return
    }
    thread.depth = depth &+ 1
    body()
    thread.depth = depth
}
