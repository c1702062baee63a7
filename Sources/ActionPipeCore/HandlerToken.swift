import ActionPipeKernel

/// Identifies one registered handler, so it can be removed later.
///
/// Every registration returns a token. Cancelling it removes that handler; if the handler
/// was already replaced or removed, cancelling does nothing.
///
/// ```swift
/// let token = pipe.on(\.someFunc) { _ in 1 }
/// token.cancel()          // true: removed
/// token.cancel()          // false: nothing left to remove
/// ```
public struct HandlerToken: Sendable, Hashable, CustomStringConvertible {
    let member: WeakBox<_Member>
    let pipeName: String
    let key: _ActionKey
    let id: UInt64

    /// Removes the handler if it is still registered.
    ///
    /// ```swift
    /// token.cancel()
    /// ```
    ///
    /// - Returns: Whether a handler was removed.
    ///
    /// - Complexity: O(1) amortised (see ``ActionPipe/removeHandler(for:)``).
    @discardableResult
    public func cancel() -> Bool {
        _withTopology {
            guard let member = member.object else { return false }
            _bury(member)
            guard member.remove(key, ifID: id) else { return false }
            member.currentChain?.changed()
            return true
        }
    }

    /// Whether the handler is still registered.
    ///
    /// ```swift
    /// if token.isActive { token.cancel() }
    /// ```
    public var isActive: Bool {
        // The member is loaded before locking: its last reference must not go under the lock.
        guard let member = member.object else { return false }
        return _withTopology { member.handler(for: key)?.id == id }
    }

    /// The pipe and action, for debugging: `pipe1.someFunc#12`.
    ///
    /// ```swift
    /// print(token)
    /// ```
    public var description: String {
        "\(pipeName).\(key.name)#\(id)"
    }

    /// Tokens are equal when they name the same registration.
    ///
    /// ```swift
    /// token == token   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the registration's identity.
    ///
    /// ```swift
    /// var tokens: Set<HandlerToken> = [token]
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
