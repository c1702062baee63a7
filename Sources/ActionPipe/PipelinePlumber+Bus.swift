extension PipelinePlumber {
    /// Publishes `transform(outcome)` on `bus` for every packet this plumber delivers or
    /// stops, however it was sent (`nil`: nothing).
    ///
    /// Added beside the sink and stop observer, it replaces neither: they run first, and
    /// setting them later does not remove it. Events are published on the thread that
    /// finishes the packet, so one port's packets are published in order (<doc:PlumbingGuide>).
    ///
    /// The plumber holds the bus weakly and the bus holds nothing of the plumber. It ends
    /// when the token is cancelled, the plumber goes away, or the bus does (at the next
    /// packet). `transform` must not capture the plumber's owner strongly.
    ///
    /// - Returns: The connector's token: cancelling it stops the publishing, and only it.
    /// - Complexity: O(t) for the plumber's t taps, and so is cancelling the token; each
    ///   packet then costs one `transform` call and one publish.
    @discardableResult
    public func publish<Event: BusEvent>(
        to bus: EventBus, _ transform: @escaping @Sendable (PlumbingOutcome<Payload>) -> Event?
    ) -> RegistrationToken {
        let link = _BusLink(scope: name, label: "publish to \(bus.name)")
        // The tap holds the link and the bus weakly; the link holds the tap's token, which
        // holds the plumber weakly: no cycle.
        let tap = _addTap { [weak bus] outcome in
            guard let bus else {
                link.end()
                return
            }
            if let event = transform(outcome) { bus.publish(event) }
        }
        link.add { tap.cancel() }
        return link.token
    }
}
