extension EventBus {
    /// A callback that publishes on this bus: hand it to anything that reports through a
    /// synchronous `@Sendable (Input) -> Void` closure, such as an operation tree's
    /// per-event progress callback, and each call publishes `transform(input)`, at once,
    /// on the calling thread, in call order.
    ///
    /// ```swift
    /// struct TreeProgress: BusEvent { let line: String }
    /// let bus = EventBus(name: "progress")
    /// let lines = Mutex<[String]>([])
    /// bus.subscribe(TreeProgress.self) { event in lines.withLock { $0.append(event.line) } }
    ///
    /// let jobs = OperationTreeNode(
    ///     "job", objects: { (count: Int) in Array(1...count) }, work: { (job: Int) in job })
    /// let progress: @Sendable (OperationTreeEvent) -> Void = bus.publisher { event in
    ///     event.finishedOutput(of: jobs).map { TreeProgress(line: "job \($0) done") }
    /// }
    /// for await event in jobs.start(2).events { progress(event) }
    /// #expect(lines.withLock { $0.count } == 2)
    /// ```
    ///
    /// The callback holds this bus weakly: once the bus is gone it publishes nothing, and
    /// whoever keeps the callback never keeps the bus alive. It registers nothing, so
    /// there is no token: it publishes for as long as it is called.
    ///
    /// - Parameter transform: The event for an input, or `nil` for none. Runs on the
    ///   caller's thread, with no lock held.
    /// - Returns: The callback.
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
