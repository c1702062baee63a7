import ActionPipeConcurrency

/// A run started with ``OperationTreeNode/start(_:options:buffering:)``: its events, its
/// report, and a way to cancel it.
public final class OperationTreeRun: Sendable {
    /// Every event of the run, in order; finishes when the run has ended. Iterate it once:
    /// like any `AsyncStream`, it has a single consumer.
    public let events: AsyncStream<OperationTreeEvent>
    let sink: _TreeEventSink
    let task: Task<OperationTreeReport, Never>
    /// Neither ended nor cancelled.
    let isRunning: LockedValue<Bool>
    private let id = RegistrationToken.nextID()

    init(
        _ runner: _TreeRunner, input: any Sendable, sink: _TreeEventSink,
        buffering: AsyncStream<OperationTreeEvent>.Continuation.BufferingPolicy
    ) {
        let isRunning = LockedValue(true)
        events = sink.addStream(buffering: buffering)
        self.sink = sink
        self.isRunning = isRunning
        task = Task {
            let report = await runner.run(input)
            isRunning.withLock { $0 = false }
            return report
        }
    }

    /// The run as a registration: cancelling the token cancels the run; store it in a
    /// ``RegistrationBag`` to end the run with its owner.
    public var token: RegistrationToken {
        RegistrationToken(registry: self, id: id, scope: "tree run")
    }

    /// Another stream of the run's events, for one more reader: every event from now on, in
    /// the order of ``events``, with its own buffer; it finishes when the run ends.
    ///
    /// - Complexity: O(1) amortised; every later event costs one more yield.
    public func eventStream(
        buffering: AsyncStream<OperationTreeEvent>.Continuation.BufferingPolicy =
            .bufferingNewest(1_024)
    ) -> AsyncStream<OperationTreeEvent> {
        sink.addStream(buffering: buffering)
    }

    /// The report, once the run has ended.
    public var report: OperationTreeReport {
        get async { await task.value }
    }

    /// Stops the run: no item starts after this call returns, running calls are cancelled,
    /// and the outcome is ``OperationTreeReport/Outcome/cancelled`` (unless already done).
    ///
    /// - Returns: Whether the run was still going (neither ended nor cancelled before).
    /// - Complexity: O(1).
    @discardableResult
    public func cancel() -> Bool { _cancelRegistration(id, detail: 0) }
}

extension OperationTreeRun: _Registry {
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        let wasRunning = isRunning.withLock { isRunning in
            defer { isRunning = false }
            return isRunning
        }
        if wasRunning { task.cancel() }
        return wasRunning
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        isRunning.withLock { $0 }
    }
}
