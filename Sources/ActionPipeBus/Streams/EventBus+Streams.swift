import ActionPipeConcurrency

extension EventBus {
    /// The events of `topic` published from now on, as an `AsyncStream`: a subscription in
    /// publish order (sticky events first). It finishes when the bus goes; dropping the
    /// stream, or cancelling its reader, cancels the subscription.
    ///
    /// ```swift
    /// for await login in bus.events(for: BusTopic(Login.self, .login)) { print(login.user) }
    /// ```
    ///
    /// - Parameter buffering: What the stream keeps while its reader is behind: by default
    ///   the newest 1,024 unread events, so an unread stream cannot exhaust memory.
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

/// Feeds a subscription's events to an `AsyncStream`, and finishes it when released (the
/// subscription cancelled, or the bus gone), which the bus does after unlocking.
final class _BusStreamFeeder<Event: BusEvent>: Sendable {
    let continuation: AsyncStream<Event>.Continuation

    init(_ continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }

    deinit { continuation.finish() }
}
