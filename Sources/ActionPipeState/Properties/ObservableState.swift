/// A state object: the observable properties that a screen's layers share, write and
/// observe instead of calling each other.
///
/// Its properties are ``Observed`` (or `let` ``ObservedProperty``); its sub-states are
/// further state objects, fixed (`let`) or replaceable (`@Observed var`).
public protocol ObservableState: AnyObject, Sendable {}

extension ObservableState {
    /// Observes the property at `keyPath`; the same as `self[keyPath: keyPath].observe`.
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func observe<Value>(
        _ keyPath: KeyPath<Self, ObservedProperty<Value>>,
        _ options: ObservationOptions = [],
        _ handler: @escaping @Sendable (Value) -> Void
    ) -> RegistrationToken {
        self[keyPath: keyPath].observe(options, handler)
    }

    /// Observes the property at `keyPath` for as long as `owner` lives; the handler gets the
    /// owner, so it need not capture it.
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func observe<Value, Owner: AnyObject & Sendable>(
        _ keyPath: KeyPath<Self, ObservedProperty<Value>>,
        _ options: ObservationOptions = [],
        owner: Owner,
        retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        self[keyPath: keyPath].observe(options, owner: owner, retention: retention, handler)
    }

    /// A path from this state through its sub-states, starting at the property at `keyPath`:
    /// `screen.path(\.$image).then(\.$url)`.
    ///
    /// - Complexity: O(1).
    public func path<Value>(
        _ keyPath: KeyPath<Self, ObservedProperty<Value>>
    ) -> ObservedPath<Value> {
        ObservedPath(self[keyPath: keyPath])
    }
}
