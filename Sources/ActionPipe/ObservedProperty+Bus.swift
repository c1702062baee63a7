extension ObservedProperty {
    /// Publishes `transform(value)` on `bus` for every new value of this property,
    /// synchronously, on the assigning thread, in assignment order (`nil`: nothing); see
    /// <doc:ObservableStateGuide>.
    ///
    /// The property holds the bus weakly and the bus holds nothing of the property. It ends
    /// when the token is cancelled, the property goes away, or the bus does (removed at the
    /// next assignment). `transform` must not capture the property's owner strongly.
    ///
    /// - Returns: The observation's token: cancelling it stops the publishing.
    /// - Complexity: Amortised O(1), as `observe(_:owner:retention:_:)`; each assignment then
    ///   costs one `transform` call and one publish.
    @discardableResult
    public func publish<Event: BusEvent>(
        _ options: ObservationOptions = [], to bus: EventBus,
        _ transform: @escaping @Sendable (Value) -> Event?
    ) -> RegistrationToken {
        // The bus is the owner, held weakly: the observation ends once it is gone.
        observe(options, owner: bus) { bus, value in
            if let event = transform(value) { bus.publish(event) }
        }
    }
}
