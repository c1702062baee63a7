/// Feeds the events of a subscription to an `AsyncStream`, and finishes the stream when the
/// subscription lets it go (cancelled, or the bus went away): the bus releases its entries,
/// and with them this, after unlocking.
final class _BusStreamFeeder<Event: BusEvent>: Sendable {
    let continuation: AsyncStream<Event>.Continuation

    init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

    deinit { continuation.finish() }
}
