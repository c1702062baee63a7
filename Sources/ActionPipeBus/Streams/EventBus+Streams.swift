import ActionPipeConcurrency

extension EventBus {
    /// The events of `topic` published from now on, as an `AsyncStream` that finishes when
    /// the bus goes; dropping it cancels the subscription.
    public func events<Event: BusEvent>(
        for topic: BusTopic<Event>,
        buffering: AsyncStream<Event>.Continuation.BufferingPolicy = .bufferingNewest(1_024)
    ) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Event.self, bufferingPolicy: buffering)
        let feeder = _BusStreamFeeder(continuation)
        let token = _subscribe(topic, owner: nil, name: "events", executor: nil) { _, event in
            feeder.continuation.yield(event)
            return nil
        }
        continuation.onTermination = { _ in token.cancel() }
        return stream
    }
}

/// Finishes its stream when released (subscription cancelled or bus gone), unlocked.
final class _BusStreamFeeder<Event: BusEvent>: Sendable {
    let continuation: AsyncStream<Event>.Continuation

    init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

    deinit { continuation.finish() }
}
