import ActionPipeConcurrency

/// A packet waiting for its port to be free.
///
/// It keeps the plumber it was emitted into: the packet belongs to that plumber from `emit`
/// to its outcome, even if the caller releases the plumber or the port is removed from it
/// (and added to another) while the packet waits. The port's lock never releases one: a
/// queued packet leaves the lock (dequeued or withdrawn) and is released after unlocking,
/// so the plumber's deinit runs outside it.
@usableFromInline
struct _PlumbingQueuedPacket<Payload: Sendable> {
    @usableFromInline let payload: Payload
    /// The plumber the packet was emitted into, which runs it.
    @usableFromInline let plumber: PipelinePlumber<Payload>
    /// The `process` call awaiting the outcome; `nil` for `emit`. Resumed with `nil` when the
    /// packet is withdrawn (its caller was cancelled while it waited): the caller then
    /// builds the cancelled outcome in its own task.
    @usableFromInline let waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?
    @usableFromInline let cancelled: _PlumbingCancelFlag?

    @inlinable
    init(
        payload: Payload, plumber: PipelinePlumber<Payload>,
        waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?,
        cancelled: _PlumbingCancelFlag?
    ) {
        self.payload = payload
        self.plumber = plumber
        self.waiter = waiter
        self.cancelled = cancelled
    }
}
