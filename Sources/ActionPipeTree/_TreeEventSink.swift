import ActionPipeKernel

/// Where a run's events go; a class so that "no listener" is a cheap `nil` check.
final class _TreeEventSink: Sendable {
    let continuation: AsyncStream<OperationTreeEvent>.Continuation

    init(_ continuation: AsyncStream<OperationTreeEvent>.Continuation) {
        self.continuation = continuation
    }

    func yield(_ event: OperationTreeEvent) { continuation.yield(event) }

    /// Yields `event`; an event the bounded buffer drops to make room goes to `dropped`, for
    /// the caller to release after unlocking.
    func yield(_ event: OperationTreeEvent, dropped: inout [OperationTreeEvent]) {
        if case .dropped(let old) = continuation.yield(event) { dropped.append(old) }
    }

    func finish() { continuation.finish() }
}
