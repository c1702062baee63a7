import ActionPipeKernel

/// A run of an operation tree started with ``OperationTreeNode/start(_:options:buffering:)``: its
/// events as they happen, its final report, and a way to cancel it.
///
/// ```swift
/// let run = cookbook.start("a-cookbook")
/// Task { for await event in run.events { print(event) } }
/// if userTappedCancel { run.cancel() }   // or run.token.cancel(), or keep the token in a bag
/// let report = await run.report  // outcome .cancelled if cancelled in time
/// ```
public final class OperationTreeRun: Sendable {
    /// Every event of the run, in order (see ``OperationTreeEvent``); finishes when the run
    /// has ended. Iterate it once: like any `AsyncStream`, it has a single consumer.
    public let events: AsyncStream<OperationTreeEvent>
    let task: Task<OperationTreeReport, Never>
    /// Whether the run goes on, was cancelled, or has ended.
    let status: LockedValue<Status>
    private let id = RegistrationToken.nextID()

    /// Whether a run goes on, was cancelled, or has ended (whichever came first).
    enum Status: Sendable { case running, cancelled, ended }

    init(
        events: AsyncStream<OperationTreeEvent>, task: Task<OperationTreeReport, Never>,
        status: LockedValue<Status>
    ) {
        self.events = events
        self.task = task
        self.status = status
    }

    /// The run as a registration, like every part's: cancelling the token cancels the run,
    /// and it is active until the run ends or is cancelled. Store it in a
    /// ``RegistrationBag`` to end the run with its owner.
    ///
    /// ```swift
    /// cookbook.start("a-cookbook").token.store(in: registrations)
    /// ```
    public var token: RegistrationToken {
        RegistrationToken(registry: self, id: id, scope: "tree run")
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
    ///
    /// - Returns: Whether the run was still going (neither ended nor cancelled before).
    @discardableResult
    public func cancel() -> Bool { _cancelRegistration(id, detail: 0) }
}

extension OperationTreeRun: _Registry {
    /// Cancels the run's task, unless it has ended or was cancelled already.
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        let wasRunning = status.withLock { status in
            guard status == .running else { return false }
            status = .cancelled
            return true
        }
        if wasRunning { task.cancel() }
        return wasRunning
    }

    /// Whether the run is still going.
    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        status.withLock { $0 == .running }
    }
}
