extension ObservedProperty {
    /// Publishes an event on `bus` for every new value of this property: the one-line
    /// connector from observable state to the bus.
    ///
    /// `transform` turns each value into the event to publish, or `nil` to publish nothing
    /// for it. Events are published synchronously, on the assigning thread, in assignment
    /// order (as `observe(_:_:)` delivers values), so a subscriber without an executor
    /// has seen the event before the assignment returns.
    ///
    /// ```swift
    /// struct ProgressChanged: BusEvent { let done: Int }
    /// let progress = ObservedProperty(0)
    /// let bus = EventBus(name: "jobs")
    /// let seen = Mutex<[Int]>([])
    /// bus.subscribe(ProgressChanged.self) { event in seen.withLock { $0.append(event.done) } }
    ///
    /// let link = progress.publish(to: bus) { ProgressChanged(done: $0) }
    /// progress.value = 1
    /// progress.value = 2
    /// link.cancel()
    /// progress.value = 3
    /// #expect(seen.withLock { $0 } == [1, 2])
    /// ```
    ///
    /// The property holds the bus weakly and the bus holds nothing of the property, so the
    /// connector keeps neither alive. It ends when the token is cancelled, when the
    /// property goes away, or when the bus goes away (removed at the next assignment).
    /// `transform` is held by the property: it must not capture the object that owns the
    /// property strongly (a retain cycle); it is handed the value, which is all it needs.
    ///
    /// - Parameters:
    ///   - options: `.initial` publishes the current value's event at once; `.skipEqual`
    ///     publishes nothing for a value equal to the last one.
    ///   - bus: Where the events go.
    ///   - transform: The event for a value, or `nil` for none. Runs on the assigning
    ///     thread, with no lock held.
    /// - Returns: The observation's token: cancelling it stops the publishing.
    /// - Complexity: As `observe(_:owner:retention:_:)`: amortised O(1) in the number of
    ///   observers; each assignment then costs one `transform` call and one publish.
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
