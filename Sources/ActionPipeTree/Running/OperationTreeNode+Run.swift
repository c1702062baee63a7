import ActionPipeConcurrency

extension OperationTreeNode {
    /// Sends `input` to this node and runs the whole tree below it; returns when every item
    /// has run or failed, or when the run stops.
    ///
    /// Work runs on child tasks of the calling task, at most `options.concurrencyLimit`.
    /// Cancelling the calling task stops the run (nothing starts after that; the outcome is
    /// ``OperationTreeReport/Outcome/cancelled``). Failures are retried, then reported, never
    /// thrown. `progress` is called one event at a time, in step with the work (`started`
    /// returns before the attempt begins); a listener that must not slow the run uses
    /// ``start(_:options:buffering:)``.
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
    /// The run is not a child of the calling task: cancel it with
    /// ``OperationTreeRun/cancel()``. Unread events wait in `buffering` (by default the
    /// newest 1,024; the report still counts dropped ones).
    ///
    /// - Complexity: one task for the run, then as ``run(_:options:progress:)``, plus one
    ///   yield per event and stream.
    public func start(
        _ input: Input, options: OperationTreeOptions = .init(),
        buffering: AsyncStream<OperationTreeEvent>.Continuation.BufferingPolicy =
            .bufferingNewest(1_024)
    ) -> OperationTreeRun {
        let sink = _TreeEventSink()
        let runner = _TreeRunner(root: self, options: options, events: sink)
        return OperationTreeRun(runner, input: input, sink: sink, buffering: buffering)
    }
}
