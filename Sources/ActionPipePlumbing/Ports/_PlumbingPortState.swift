import ActionPipeConcurrency

/// What a port's lock guards.
@usableFromInline
struct _PlumbingPortState<Payload: Sendable> {
    /// The plumber, held weakly. Loading it makes a strong reference, which may be the last
    /// one: every critical section that loads it returns it, so it is released after
    /// unlocking (the plumber's deinit, and that of everything its stages and sink captured,
    /// must not run under the port's lock).
    @usableFromInline weak var plumber: PipelinePlumber<Payload>?
    /// Packets waiting, oldest first, from `head` on (a dequeue moves `head`, so it is O(1)).
    /// Waiting packets from `head` on; the slots before `head` were processed and hold
    /// nothing (a packet is released as it leaves the queue, not when the queue empties).
    @usableFromInline var queue: [_PlumbingQueuedPacket<Payload>?] = []
    @usableFromInline var head = 0
    /// Whether a packet of this port is being processed (by a caller or by the drain task).
    @usableFromInline var busy = false
    /// Counts the packets that have started; identifies the one running now.
    @usableFromInline var turn: UInt64 = 0

    @inlinable init() {}

    /// Marks the port busy with a new packet and returns its turn.
    @inlinable
    mutating func begin() -> UInt64 {
        busy = true
        turn &+= 1
        return turn
    }

    @inlinable var hasWaiting: Bool { head < queue.count }

    /// Removes the waiting packet marked by `flag` and returns it (with its caller), or
    /// `nil` when no waiting packet has that mark. The caller releases it after unlocking.
    mutating func withdraw(_ flag: _PlumbingCancelFlag) -> _PlumbingQueuedPacket<Payload>? {
        guard let position = queue[head...].firstIndex(where: { $0?.cancelled === flag }),
            queue[position]?.waiter != nil
        else { return nil }
        let removed = queue.remove(at: position)
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return removed
    }

    /// Takes the next waiting packet out of the queue.
    ///
    /// - Complexity: amortised O(1): the processed slots are dropped once they are half the
    ///   queue (they hold nothing, so dropping them releases no user value).
    mutating func dequeue() -> _PlumbingQueuedPacket<Payload>? {
        guard head < queue.count else { return nil }
        let item = queue[head].take()
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 16, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return item
    }
}

/// What `emit` / `process` do with a packet, decided under the port's lock.
@usableFromInline
enum _PlumbingAdmission<Payload: Sendable> {
    /// The port was free and is now claimed by the caller, who runs the packet against
    /// this snapshot (all synchronous; valid while the plumber is held).
    case runHere(PipelinePlumber<Payload>)
    /// Queued; `startDrain` when the caller must start the drain task.
    /// `plumber` only leaves the lock to be released outside it.
    case queued(startDrain: Bool, plumber: PipelinePlumber<Payload>)
    /// The port feeds no plumber.
    case notConnected
}

/// A packet of a port that is running: the port and the packet's turn.
struct _PlumbingTurn: Sendable, Equatable {
    let port: ObjectIdentifier
    let turn: UInt64
}

/// The port packets the current task is running, innermost last. A stage that awaits
/// `process` on the port whose packet it is running would otherwise wait for itself: the
/// port finds its own turn here and runs the new packet at once, nested.
enum _PlumbingRunning {
    @TaskLocal static var turns: [_PlumbingTurn] = []
}

/// What `process` does, decided under the port's lock.
enum _PlumbingClaim<Payload: Sendable> {
    /// The port was free; the caller runs the packet in this turn.
    case claimed(PipelinePlumber<Payload>, UInt64)
    /// The caller is a stage of the port's running packet: run at once.
    case nested(PipelinePlumber<Payload>)
    /// The port is busy with another packet: queue. (`plumber` only leaves the lock to be
    /// released outside it.)
    case wait(PipelinePlumber<Payload>)
    case notConnected
}
