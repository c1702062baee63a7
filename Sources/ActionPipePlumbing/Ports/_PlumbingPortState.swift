import ActionPipeConcurrency
import Synchronization

/// What a port's lock guards.
@usableFromInline
struct _PlumbingPortState<Payload: Sendable> {
    /// Every critical section that loads it returns it, to be released after unlocking.
    @usableFromInline weak var plumber: PipelinePlumber<Payload>?
    /// Waiting packets: `next` holds the oldest, last first; `queue` the newer, in order.
    /// A packet is released as it leaves.
    @usableFromInline var queue: [_PlumbingQueuedPacket<Payload>] = []
    @usableFromInline var next: [_PlumbingQueuedPacket<Payload>] = []
    /// Whether a packet of this port is being processed (by a caller or the drain task).
    @usableFromInline var busy = false
    /// Identifies the packet running now.
    @usableFromInline var turn: UInt64 = 0

    @inlinable init() {}

    @inlinable
    mutating func begin() -> UInt64 {
        busy = true
        turn &+= 1
        return turn
    }

    @inlinable var hasWaiting: Bool { !queue.isEmpty || !next.isEmpty }

    /// Removes the waiting packet marked by `flag`, to release after unlocking.
    mutating func withdraw(_ flag: _PlumbingCancelFlag) -> _PlumbingQueuedPacket<Payload>? {
        if let index = queue.firstIndex(where: { $0.cancelled === flag }) {
            return queue.remove(at: index)
        }
        return next.firstIndex { $0.cancelled === flag }.map { next.remove(at: $0) }
    }

    /// Amortised O(1).
    mutating func dequeue() -> _PlumbingQueuedPacket<Payload>? {
        if next.isEmpty {
            swap(&queue, &next)
            next.reverse()
        }
        return next.popLast()
    }
}

/// What `emit` / `process` do with a packet, decided under the port's lock.
@usableFromInline
enum _PlumbingAdmission<Payload: Sendable> {
    /// The port was free and is claimed by the caller, who runs the packet in this plumber.
    case runHere(PipelinePlumber<Payload>)
    /// `startDrain` when the caller must start the drain task; `plumber` leaves the lock to
    /// be released outside it.
    case queued(startDrain: Bool, plumber: PipelinePlumber<Payload>)
    /// The port feeds no plumber.
    case notConnected
}

struct _PlumbingTurn: Sendable, Equatable {
    let port: ObjectIdentifier
    let turn: UInt64
}

/// The port packets the current task is running, innermost last: a stage awaiting `process`
/// on its own port finds its turn here and runs nested.
enum _PlumbingRunning {
    @TaskLocal static var turns: [_PlumbingTurn] = []
}

/// What `process` does, decided under the port's lock.
enum _PlumbingClaim<Payload: Sendable> {
    case claimed(PipelinePlumber<Payload>, UInt64)
    /// The caller is a stage of the port's running packet: run at once.
    case nested(PipelinePlumber<Payload>)
    /// The port is busy: queue (`plumber` leaves the lock to be released outside it).
    case wait(PipelinePlumber<Payload>)
    case notConnected
}

/// A packet waiting for its port, keeping the plumber it was emitted into; released after the
/// port's lock. `waiter` is the `process` call awaiting it (`nil` for `emit`), resumed with
/// `nil` when withdrawn.
@usableFromInline
typealias _PlumbingQueuedPacket<Payload: Sendable> = (
    payload: Payload, plumber: PipelinePlumber<Payload>,
    waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?,
    cancelled: _PlumbingCancelFlag?
)

/// Set when the task awaiting a queued packet is cancelled; checked by the drain between
/// stages, since the packet runs in the drain's task.
@usableFromInline
final class _PlumbingCancelFlag: Sendable {
    private let storage = Atomic<Bool>(false)

    func set() { storage.store(true, ordering: .releasing) }

    var isSet: Bool { storage.load(ordering: .acquiring) }
}
