import ActionPipeConcurrency

/// A packet waiting for its port. It keeps the plumber it was emitted into until its outcome,
/// even if the plumber is released or the port moved meanwhile; it is released after the
/// port's lock, so the plumber's deinit runs outside it.
@usableFromInline
struct _PlumbingQueuedPacket<Payload: Sendable> {
    @usableFromInline let payload: Payload
    @usableFromInline let plumber: PipelinePlumber<Payload>
    /// The `process` call awaiting the outcome; `nil` for `emit`. Resumed with `nil` when
    /// withdrawn: the caller builds the cancelled outcome in its own task.
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
