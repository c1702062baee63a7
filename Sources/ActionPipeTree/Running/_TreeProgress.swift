import ActionPipeConcurrency

/// Delivers a run's events to its progress callback one call at a time, in ticket order
/// (tickets are taken under the run's lock, only by a worker about to deliver, so every one
/// is served); the worker waits for the earlier tickets, then calls the callback unlocked.
final class _TreeProgress: Sendable {
    let callback: @Sendable (OperationTreeEvent) -> Void

    private struct State {
        var serving: UInt64 = 0
        /// Workers waiting for a later ticket, at most one each.
        var waiting: [UInt64: UnsafeContinuation<Void, Never>] = [:]
    }

    private let state = LockedValue(State())

    init(_ callback: @escaping @Sendable (OperationTreeEvent) -> Void) {
        self.callback = callback
    }

    /// Calls the callback with `events`, in order, once every earlier ticket is delivered.
    nonisolated(nonsending) func deliver(_ events: [OperationTreeEvent], ticket: UInt64) async {
        if !state.withLock({ $0.serving == ticket }) {
            await withUnsafeContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.serving == ticket { return true }
                    state.waiting[ticket] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
        for event in events { callback(event) }
        let next = state.withLock { state in
            state.serving += 1
            return state.waiting.removeValue(forKey: state.serving)
        }
        next?.resume()
    }
}
