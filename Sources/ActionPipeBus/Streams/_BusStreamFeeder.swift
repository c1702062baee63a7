/// Feeds a subscription's events to an `AsyncStream`, and finishes it when released (the
/// subscription cancelled, or the bus gone), which the bus does after unlocking.
final class _BusStreamFeeder<Event: BusEvent>: Sendable {
    let continuation: AsyncStream<Event>.Continuation

    init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

    deinit { continuation.finish() }
}
