extension OperationTreeRun {
    /// Publishes an event on `bus` for every event of this run: the one-line connector from
    /// a started operation tree to the bus.
    ///
    /// `transform` receives each `OperationTreeEvent`, in the run's order, and returns
    /// the event to publish, or `nil` for none. Call it right after
    /// `OperationTreeNode/start(_:options:buffering:)`: it reads the run's `events`
    /// (every event since the start, within the stream's buffer) as their one reader, in a
    /// task of its own, so events are published shortly after they happen, not during the
    /// work. To read the events yourself as well, use `eventStream(buffering:)`; never
    /// iterate `events` too (an `AsyncStream` has one reader).
    ///
    /// ```swift
    /// struct JobDone: BusEvent { let job: Int }
    /// let jobs = OperationTreeNode(
    ///     "job", objects: { (count: Int) in Array(1...count) }, work: { (job: Int) in job })
    /// let bus = EventBus(name: "jobs")
    /// let done = Mutex<[Int]>([])
    /// bus.subscribe(JobDone.self) { event in done.withLock { $0.append(event.job) } }
    ///
    /// let run = jobs.start(3)
    /// run.publish(to: bus) { event in event.finishedOutput(of: jobs).map(JobDone.init) }
    /// _ = await run.report
    /// while done.withLock({ $0.count }) < 3 { await Task.yield() }  // published after the run
    /// #expect(done.withLock { $0.sorted() } == [1, 2, 3])
    /// ```
    ///
    /// The connector holds the bus weakly and the bus holds nothing of it: it keeps neither
    /// the bus nor the run alive, and cancelling it does not cancel the run. It ends once
    /// the run's last event is published, when the token is cancelled (an event being
    /// published at that moment may still arrive, none after it), or when the bus goes
    /// away. For a run that reports progress through a synchronous callback, pass
    /// `EventBus/publisher(_:)` as that callback instead.
    ///
    /// - Parameters:
    ///   - bus: Where the events go.
    ///   - transform: The event for a run's event, or `nil` for none. Runs in the
    ///     connector's task, with no lock held.
    /// - Returns: The connector's token: cancelling it stops the publishing, not the run.
    /// - Complexity: O(1), and one task; each event then costs one `transform` call and
    ///   one publish.
    @discardableResult
    public func publish<Event: BusEvent>(
        to bus: EventBus, _ transform: @escaping @Sendable (OperationTreeEvent) -> Event?
    ) -> RegistrationToken {
        let link = _BusLink(scope: "tree run", label: "publish to \(bus.name)")
        let events = events
        let forwarding = Task { [weak bus] in
            // A cancelled task's `next()` returns nil; `isActive` also stops an event that
            // was already taken when the token was cancelled.
            for await event in events {
                guard link.isActive, let bus else { break }
                if let published = transform(event) { bus.publish(published) }
            }
            link.end()
        }
        link.add { forwarding.cancel() }
        return link.token
    }
}
