/// A run of an operation tree started with ``OperationTreeNode/start(_:options:buffering:)``: its
/// events as they happen, its final report, and a way to cancel it.
///
/// ```swift
/// let run = cookbook.start("a-cookbook")
/// Task { for await event in run.events { print(event) } }
/// if userTappedCancel { run.cancel() }
/// let report = await run.report  // outcome .cancelled if cancelled in time
/// ```
public final class OperationTreeRun: Sendable {
    /// Every event of the run, in order (see ``OperationTreeEvent``); finishes when the run
    /// has ended. Iterate it once: like any `AsyncStream`, it has a single consumer.
    public let events: AsyncStream<OperationTreeEvent>
    let task: Task<OperationTreeReport, Never>

    init(events: AsyncStream<OperationTreeEvent>, task: Task<OperationTreeReport, Never>) {
        self.events = events
        self.task = task
    }

    /// The report, once the run has ended.
    ///
    /// ```swift
    /// let report = await run.report
    /// print(report.failures)
    /// ```
    public var report: OperationTreeReport {
        get async { await task.value }
    }

    /// Stops the run: no item starts after this call returns, running provider calls are
    /// cancelled, and the report's outcome is ``OperationTreeReport/Outcome/cancelled``
    /// (unless the tree was already done).
    ///
    /// ```swift
    /// run.cancel()
    /// #expect(await run.report.outcome == .cancelled)
    /// ```
    public func cancel() { task.cancel() }
}
