import Synchronization

/// Set when the task awaiting a queued packet is cancelled; the drain checks it between
/// stages, because the packet runs in the drain's task, not the caller's.
final class _PlumbingCancelFlag: Sendable {
    private let storage = Atomic<Bool>(false)

    func set() { storage.store(true, ordering: .releasing) }

    var isSet: Bool { storage.load(ordering: .acquiring) }
}

/// A packet waiting for its port to be free.
struct _PlumbingQueuedPacket<Payload: Sendable> {
    let payload: Payload
    /// The `process` call awaiting the outcome; `nil` for `emit`.
    let waiter: CheckedContinuation<PlumbingOutcome<Payload>, Never>?
    let cancelled: _PlumbingCancelFlag?
}

/// What a port's lock guards.
struct _PlumbingPortState<Payload: Sendable> {
    weak var plumber: PipelinePlumber<Payload>?
    /// Packets waiting, oldest first, from `head` on (a dequeue moves `head`, so it is O(1)).
    var queue: [_PlumbingQueuedPacket<Payload>] = []
    var head = 0
    /// Whether a packet of this port is being processed (by a caller or by the drain task).
    var busy = false

    var hasWaiting: Bool { head < queue.count }

    mutating func dequeue() -> _PlumbingQueuedPacket<Payload>? {
        guard head < queue.count else { return nil }
        let item = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return item
    }
}

/// What `emit` / `process` do with a packet, decided under the port's lock.
enum _PlumbingAdmission<Payload: Sendable> {
    /// The port was free and is now claimed by the caller, who runs the packet against
    /// this snapshot (all synchronous; valid while the plumber is held).
    case runHere(PipelinePlumber<Payload>, Unmanaged<_PlumbingSnapshot<Payload>>)
    /// Queued; `startDrain` when the caller must start the drain task.
    case queued(startDrain: Bool)
    /// The port feeds no plumber.
    case notConnected
}
