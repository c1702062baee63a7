import ActionPipeConcurrency

extension OperationTreeNode {
    /// Sends `input` to this node and runs the whole tree below it; returns when every item
    /// has run or failed, or when the run stops. `progress`, if given, sees every event as
    /// it happens.
    ///
    /// ```swift
    /// let report = await cookbook.run("a-cookbook", options: .init(concurrencyLimit: 4)) { event in
    ///     if let recipe = event.finishedOutput(of: recipeNode) { show(recipe) }
    /// }
    /// #expect(report.outcome == .completed)
    /// ```
    ///
    /// Work runs on child tasks of the calling task, started as items become ready: never
    /// more than `options.concurrencyLimit`, and never more than the items that can run, so
    /// a huge limit costs nothing. The work inherits the caller's priority and task-local
    /// values. Cancelling the calling task
    /// stops the run: no item starts after that, running provider calls see the
    /// cancellation, and the report's outcome is ``OperationTreeReport/Outcome/cancelled``.
    /// Failures never throw here: they are retried, then listed in the report.
    ///
    /// The progress callback is called on the run's tasks, with no lock held, in step with
    /// the work: an attempt's `started` returns before the attempt's work is called, its
    /// `produced` comes after the work returned and before the item's children are asked
    /// for, and every call has returned before `run` does, so no event comes after the
    /// report. Calls are never concurrent with one another: when items run at once, their
    /// events come one at a time, in the one order in which the run saw them happen (each
    /// item's in the order ``OperationTreeEvent`` gives, `finished` in post-order), and a
    /// worker whose event is next waits, suspended, until the call before it has returned.
    /// So keep the callback short: a slow one slows the run. For a listener that must not
    /// hold the run back, or for a run not tied to the calling task, use
    /// ``start(_:options:buffering:)``.
    ///
    /// - Parameters:
    ///   - input: The root node's input.
    ///   - options: The run's options.
    ///   - progress: Called with each event of the run, in order, one call at a time.
    /// - Complexity: one lock round-trip per item, and no task per item; with `progress`,
    ///   one more per event, and the callback's own time.
    public nonisolated(nonsending) func run(
        _ input: Input, options: OperationTreeOptions = .init(),
        progress: (@Sendable (OperationTreeEvent) -> Void)? = nil
    ) async -> OperationTreeReport {
        await _TreeRunner(
            root: self, options: options, events: nil, progress: progress.map(_TreeProgress.init)
        ).run(input)
    }

    /// Starts a run of the tree in a new task and returns its handle, whose `events` report
    /// progress as it happens: for fire-and-forget runs, and listeners that must not hold
    /// the run back. A run that the calling task waits for is simpler with
    /// ``run(_:options:progress:)``.
    ///
    /// ```swift
    /// let run = cookbook.start("a-cookbook")
    /// for await event in run.events {
    ///     if let recipe = event.finishedOutput(of: recipeNode) { show(recipe) }
    /// }
    /// let report = await run.report
    /// ```
    ///
    /// The run is not a child of the calling task: cancel it with
    /// ``OperationTreeRun/cancel()``. The stream finishes when the run has ended.
    ///
    /// Events wait in a bounded buffer until read: by default the newest 1,024, so a
    /// stream nobody reads (or reads slowly) holds at most that many, whatever the size of
    /// the tree. Older events are dropped to make room; the report counts everything
    /// whether or not its events were read. Pass `.unbounded` to keep every event.
    ///
    /// ```swift
    /// let run = cookbook.start("a-cookbook", buffering: .bufferingNewest(100))
    /// ```
    ///
    /// - Parameters:
    ///   - input: The root node's input.
    ///   - options: The run's options.
    ///   - buffering: How many unread events the stream keeps, and which.
    /// - Complexity: one task for the run, then as ``run(_:options:progress:)``, plus one
    ///   yield per event and stream.
    public func start(
        _ input: Input, options: OperationTreeOptions = .init(),
        buffering: AsyncStream<OperationTreeEvent>.Continuation.BufferingPolicy =
            .bufferingNewest(1_024)
    ) -> OperationTreeRun {
        let (events, continuation) = AsyncStream.makeStream(
            of: OperationTreeEvent.self, bufferingPolicy: buffering)
        let sink = _TreeEventSink(continuation)
        let runner = _TreeRunner(root: self, options: options, events: sink)
        let status = LockedValue(OperationTreeRun.Status.running)
        let task = Task {
            let report = await runner.run(input)
            status.withLock { if $0 == .running { $0 = .ended } }
            return report
        }
        return OperationTreeRun(events: events, sink: sink, task: task, status: status)
    }
}
