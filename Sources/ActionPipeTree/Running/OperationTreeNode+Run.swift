import ActionPipeConcurrency

extension OperationTreeNode {
    /// Sends `input` to this node and runs the whole tree below it; returns when every item
    /// has run or failed, or when the run stops.
    ///
    /// ```swift
    /// let report = await cookbook.run("a-cookbook", options: .init(concurrencyLimit: 4)) { event in
    ///     if let recipe = event.finishedOutput(of: recipeNode) { show(recipe) }
    /// }
    /// ```
    ///
    /// Work runs on child tasks of the calling task (its priority and task-locals), at most
    /// `options.concurrencyLimit` and never more than the items that can run. Cancelling the
    /// calling task stops the run: nothing starts after that, running calls see the
    /// cancellation, and the outcome is ``OperationTreeReport/Outcome/cancelled``. Failures
    /// never throw: they are retried, then listed in the report.
    ///
    /// `progress` is called with no lock held, one event at a time in the run's one order,
    /// in step with the work: `started` returns before the attempt begins, and every call has
    /// returned before `run` does. A slow callback slows the run; a listener that must not
    /// hold it back uses ``start(_:options:buffering:)``.
    ///
    /// - Complexity: one lock round-trip per item, no task per item; with `progress`, one
    ///   more per event.
    public nonisolated(nonsending) func run(
        _ input: Input, options: OperationTreeOptions = .init(),
        progress: (@Sendable (OperationTreeEvent) -> Void)? = nil
    ) async -> OperationTreeReport {
        await _TreeRunner(
            root: self, options: options, events: nil, progress: progress.map(_TreeProgress.init)
        ).run(input)
    }

    /// Starts a run of the tree in a new task and returns its handle, whose `events` report
    /// progress without holding the run back.
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
    /// ``OperationTreeRun/cancel()``. Unread events wait in a bounded buffer (by default the
    /// newest 1,024; older ones are dropped, the report still counts them); pass
    /// `.unbounded` to keep every event.
    ///
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
        return OperationTreeRun(runner, input: input, events: events, sink: sink)
    }
}
