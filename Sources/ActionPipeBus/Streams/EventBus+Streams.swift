import ActionPipeConcurrency

extension EventBus {
    /// The events of `topic` published from now on, as an `AsyncStream`.
    ///
    /// The stream is a subscription: it gets what a subscriber of `topic` gets, in publish
    /// order (and the topic's sticky events first, see ``publishSticky(_:)``). It finishes
    /// when the bus goes away; dropping the stream, or cancelling the task that reads it,
    /// cancels the subscription.
    ///
    /// ```swift
    /// Task {
    ///     for await login in bus.events(for: BusTopic(Login.self, .login)) {
    ///         print("welcome", login.user)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - topic: The events to stream.
    ///   - buffering: What the stream keeps while its reader is behind. By default the newest
    ///     1,024 unread events: a reader that falls further behind loses the oldest, so a
    ///     stream nobody reads cannot exhaust memory. `.unbounded` keeps every event.
    /// - Complexity: O(1) amortised, like ``subscribe(_:name:on:_:)``; each publish then
    ///   costs one more yield.
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
