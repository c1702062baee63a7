import ActionPipeConcurrency

/// Where a run's events go: its own stream and those of `eventStream(buffering:)`, every
/// event to every stream under one lock (one order; yielding runs no user code).
final class _TreeEventSink: Sendable {
    typealias Continuation = AsyncStream<OperationTreeEvent>.Continuation

    private struct State {
        var streams: [UInt64: Continuation] = [:]
        var nextID: UInt64 = 0
        var isFinished = false
    }

    private let state = LockedValue(State())

    /// Yields `event` to every stream; events the buffers drop go to `dropped`, for the caller
    /// to release after unlocking.
    func yield(_ event: OperationTreeEvent, dropped: inout [OperationTreeEvent]) {
        state.withLock { state in
            for continuation in state.streams.values {
                if case .dropped(let old) = continuation.yield(event) { dropped.append(old) }
            }
        }
    }

    /// A new stream of the events from now on; finished at once if the run has ended.
    func addStream(buffering: Continuation.BufferingPolicy) -> AsyncStream<OperationTreeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: OperationTreeEvent.self, bufferingPolicy: buffering)
        let id = state.withLock { state -> UInt64? in
            if state.isFinished { return nil }
            state.nextID += 1
            state.streams[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        // Runs when the reader stops (or at `finish`, after the streams left the lock).
        continuation.onTermination = { [weak self] _ in
            let removed = self?.state.withLock { $0.streams.removeValue(forKey: id) }
            withExtendedLifetime(removed) {}
        }
        return stream
    }

    func finish() {
        let streams = state.withLock { state in
            state.isFinished = true
            defer { state.streams = [:] }
            return state.streams.values
        }
        for continuation in streams { continuation.finish() }
    }
}
