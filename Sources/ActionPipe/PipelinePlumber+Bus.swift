extension PipelinePlumber {
    /// Publishes an event on `bus` for every packet this plumber delivers or stops: the
    /// one-line connector from plumbing to the bus.
    ///
    /// `transform` receives each packet's outcome, delivered or stopped (however it was
    /// sent: `send`, `process`, or a port), and returns the event to publish, or `nil` for
    /// none. It is added beside the plumber's sink and stop observer and replaces neither:
    /// the app's `sink` and `onStop` still run, before it, and setting them later does not
    /// remove it.
    ///
    /// ```swift
    /// struct Uploaded: BusEvent {
    ///     enum Kind: Hashable, Sendable { case sent, refused }
    ///     let subtype: Kind
    ///     let size: Int
    /// }
    /// let plumber = PipelinePlumber<Int>(name: "upload")
    /// plumber.addStage("small") { packet in packet.payload < 100 ? .pass : .stop("too big") }
    /// let bus = EventBus(name: "uploads")
    /// let seen = Mutex<[String]>([])
    /// bus.subscribe(BusTopic(anySubtypeOf: Uploaded.self)) { event in
    ///     seen.withLock { $0.append("\(event.subtype) \(event.size)") }
    /// }
    ///
    /// let link = plumber.publish(to: bus) { outcome in
    ///     Uploaded(subtype: outcome.wasDelivered ? .sent : .refused, size: outcome.packet.payload)
    /// }
    /// plumber.send(10, from: 1)
    /// plumber.send(500, from: 1)
    /// link.cancel()
    /// plumber.send(20, from: 1)
    /// #expect(seen.withLock { $0 } == ["sent 10", "refused 500"])
    /// ```
    ///
    /// Events are published on the thread that finishes the packet, right after the sink
    /// (or stop observer), so the packets of one port are published in order. The plumber
    /// holds the bus weakly and the bus holds nothing of the plumber: the connector keeps
    /// neither alive. It ends when the token is cancelled, when the plumber goes away, or
    /// when the bus goes away (at the next packet). `transform` is held by the plumber: it
    /// must not capture the plumber's owner strongly.
    ///
    /// - Parameters:
    ///   - bus: Where the events go.
    ///   - transform: The event for an outcome, or `nil` for none. Runs with no lock held.
    /// - Returns: The connector's token: cancelling it stops the publishing, and only it.
    /// - Complexity: O(t) for the plumber's t taps (test recorders and other connectors),
    ///   and so is cancelling the token; each packet then costs one `transform` call and
    ///   one publish.
    @discardableResult
    public func publish<Event: BusEvent>(
        to bus: EventBus, _ transform: @escaping @Sendable (PlumbingOutcome<Payload>) -> Event?
    ) -> RegistrationToken {
        let link = _BusLink(scope: name, label: "publish to \(bus.name)")
        // The tap holds the link (so it lives while it does) and the bus weakly; the link
        // holds the tap's token, which holds the plumber weakly: no cycle.
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
