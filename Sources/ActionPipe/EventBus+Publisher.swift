extension EventBus {
    /// A callback that publishes `transform(input)` on this bus, at once, on the calling
    /// thread, for each call: hand it to anything that reports through a synchronous
    /// `@Sendable (Input) -> Void` closure, such as an operation tree's progress callback
    /// (<doc:OperationTree>).
    ///
    /// The callback holds this bus weakly (once it is gone, nothing is published) and
    /// registers nothing, so there is no token.
    ///
    /// - Parameter transform: The event for an input, or `nil` for none; runs unlocked.
    /// - Complexity: O(1); each call then costs one `transform` call and one publish.
    public func publisher<Input, Event: BusEvent>(
        _ transform: @escaping @Sendable (Input) -> Event?
    ) -> @Sendable (Input) -> Void {
        { [weak self] input in
            guard let self, let event = transform(input) else { return }
            self.publish(event)
        }
    }
}
