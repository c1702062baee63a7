/// Identifies one observation, so it can be ended before its owner or its property goes away.
///
/// Dropping a token does not end the observation: it ends when the token is cancelled, when
/// the observer's owner (`observe(by:)`) or actor (`observe(on:)`) is released, or when the
/// observed property is released. The token holds the property weakly.
///
/// ```swift
/// let url = ObservedProperty<String?>(nil)
/// let token = url.observe { print($0 ?? "nil") }
/// token.isActive    // true
/// token.cancel()    // true: removed
/// token.cancel()    // false: nothing left to remove
/// ```
public struct ObservationToken: Sendable, Hashable, CustomStringConvertible {
    private weak var source: (any _ObsCancellable)?
    private let id: UInt64

    init(source: any _ObsCancellable, id: UInt64) {
        self.source = source
        self.id = id
    }

    /// Ends the observation if it is still active; the observer is released at once, and a
    /// stream it fed finishes.
    ///
    /// ```swift
    /// token.cancel()
    /// ```
    ///
    /// - Returns: Whether an observation was ended.
    ///
    /// - Complexity: Amortised O(1) in the number of observers of its property (see
    ///   ``ObservedProperty/observe(_:_:)``).
    @discardableResult
    public func cancel() -> Bool {
        source?._cancelObservation(id) ?? false
    }

    /// Whether the observation is still active.
    ///
    /// ```swift
    /// if token.isActive { token.cancel() }
    /// ```
    public var isActive: Bool {
        source?._isObserving(id) ?? false
    }

    /// `observation#12`, for debugging.
    ///
    /// ```swift
    /// print(token)
    /// ```
    public var description: String { "observation#\(id)" }

    /// Tokens are equal when they name the same observation.
    ///
    /// ```swift
    /// token == token   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// Hashes the observation's identity.
    ///
    /// ```swift
    /// var tokens: Set<ObservationToken> = [token]
    /// ```
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
