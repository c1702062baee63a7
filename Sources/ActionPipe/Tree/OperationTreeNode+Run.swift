extension OperationTreeNode {
    /// Sends `input` to this node and runs the whole tree below it; returns when every item
    /// has run or failed, or when the run stops.
    ///
    /// ```swift
    /// let report = await cookbook.run("a-cookbook", options: .init(concurrencyLimit: 4))
    /// #expect(report.outcome == .completed)
    /// ```
    ///
    /// Work runs on at most `options.concurrencyLimit` child tasks of the calling task, so
    /// it inherits the caller's priority and task-local values. Cancelling the calling task
    /// stops the run: no item starts after that, running provider calls see the
    /// cancellation, and the report's outcome is ``OperationTreeReport/Outcome/cancelled``.
    /// Failures never throw here: they are retried, then listed in the report.
    ///
    /// - Complexity: one lock round-trip per item, and no task per item.
    public nonisolated(nonsending) func run(
        _ input: Input, options: OperationTreeOptions = .init()
    ) async -> OperationTreeReport {
        await _TreeRunner(root: self, options: options, events: nil).run(input)
    }

    /// Starts a run of the tree in a new task and returns its handle, whose `events` report
    /// progress as it happens.
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
    /// ``OperationTreeRun/cancel()``. Events are buffered until read; the stream finishes
    /// when the run has ended.
    public func start(_ input: Input, options: OperationTreeOptions = .init())
        -> OperationTreeRun
    {
        let (events, continuation) = AsyncStream.makeStream(of: OperationTreeEvent.self)
        let runner = _TreeRunner(root: self, options: options, events: continuation)
        return OperationTreeRun(events: events, task: Task { await runner.run(input) })
    }
}
