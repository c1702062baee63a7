import ActionPipeConcurrency

/// Tokens kept together and cancelled together: when the bag is released, or on
/// ``cancelAll()``. An object that registers handlers, subscriptions or observations keeps
/// one bag, and its registrations end with it.
///
/// ```swift
/// final class LoginScreen {
///     let registrations = RegistrationBag()
///     init(session: ObservedProperty<String?>) {
///         session.observe { name in print(name ?? "signed out") }.store(in: registrations)
///     }
/// }   // a released LoginScreen cancels its observation
/// ```
///
/// Thread-safe. Cancelling runs no user code under the bag's lock. Tokens already cancelled
/// some other way are dropped from time to time, so a long-lived bag into which tokens are
/// stored and cancelled one by one stays as large as its live tokens.
public final class RegistrationBag: Sendable {
    private struct State {
        var tokens: [RegistrationToken] = []
        /// The count past which ``insert(_:)`` next drops cancelled tokens.
        var pruneAt = 32
    }

    private let state = LockedValue(State())

    /// An empty bag.
    public init() {}

    /// Cancels every token still in the bag.
    deinit {
        for token in state.withLock({ $0.tokens }) { token.cancel() }
    }

    /// The tokens in the bag (including any cancelled some other way and not yet dropped).
    ///
    /// - Complexity: O(1).
    public var count: Int { state.withLock { $0.tokens.count } }

    /// Adds `token`; ``RegistrationToken/store(in:)`` reads better at a registration.
    ///
    /// - Complexity: Amortised O(1): past twice the live tokens of the last pruning, the
    ///   tokens already cancelled are dropped, in one O(n) pass.
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

    /// Cancels every token in the bag and empties it. Tokens stored afterwards are kept
    /// as usual.
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
