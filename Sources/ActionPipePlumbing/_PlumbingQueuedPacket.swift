import ActionPipeConcurrency
import Synchronization

/// A packet waiting for its port to be free.
@usableFromInline
struct _PlumbingQueuedPacket<Payload: Sendable> {
    @usableFromInline let payload: Payload
    /// The `process` call awaiting the outcome; `nil` for `emit`. Resumed with `nil` when the
    /// packet is withdrawn (its caller was cancelled while it waited): the caller then
    /// builds the cancelled outcome in its own task.
    @usableFromInline let waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?
    @usableFromInline let cancelled: _PlumbingCancelFlag?

    @inlinable
    init(
        payload: Payload, waiter: CheckedContinuation<PlumbingOutcome<Payload>?, Never>?,
        cancelled: _PlumbingCancelFlag?
    ) {
        self.payload = payload
        self.waiter = waiter
        self.cancelled = cancelled
    }
}
