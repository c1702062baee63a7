import ActionPipeConcurrency

/// Tokens cancelled together, when the bag is released or on ``cancelAll()``: an object's
/// registrations end with it. Tokens cancelled some other way are pruned.
public final class RegistrationBag: Sendable {
    private struct State {
        var tokens: [RegistrationToken] = []
        var pruneAt = 32
    }

    private let state = LockedValue(State())

    /// An empty bag.
    public init() {}

    deinit {
        for token in state.withLock({ $0.tokens }) { token.cancel() }
    }

    /// The tokens in the bag, including cancelled ones not yet pruned.
    public var count: Int { state.withLock { $0.tokens.count } }

    /// Adds `token` (``RegistrationToken/store(in:)`` reads better).
    ///
    /// - Complexity: Amortised O(1) (cancelled ones are pruned as the bag doubles).
    public func insert(_ token: RegistrationToken) {
        let toCheck = state.withLock { state -> [RegistrationToken]? in
            state.tokens.append(token)
            return state.tokens.count >= state.pruneAt ? state.tokens : nil
        }
        guard let toCheck else { return }
        // Asking whether a token is active takes its part's lock: never under the bag's.
        let cancelled = Set(toCheck.lazy.filter { !$0.isActive })
        state.withLock { state in
            if !cancelled.isEmpty { state.tokens.removeAll { cancelled.contains($0) } }
            state.pruneAt = Swift.max(32, 2 * state.tokens.count)
        }
    }

    /// Cancels every token in the bag and empties it.
    ///
    /// - Complexity: O(n) for n tokens, plus what each cancellation costs.
    public func cancelAll() {
        let tokens = state.withLock { state in
            defer { state.tokens = [] }
            return state.tokens
        }
        for token in tokens { token.cancel() }
    }
}
