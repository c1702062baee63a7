/// A state object ("pipeline" in Minya): the observable properties that a screen's layers
/// share, write and observe instead of calling each other.
///
/// A state object is a class whose properties are ``Observed`` (or `let` ``ObservedProperty``
/// values), and whose sub-states are further state objects, fixed (`let`) or replaceable
/// (`@Observed var`). The protocol adds observation by key path; ``StateLayer`` and
/// ``StateScene`` build layers around one by type.
///
/// ```swift
/// final class PhotoListState: ObservableState, @unchecked Sendable {
///     @Observed("photos") var photos: [String] = []
///     @Observed("selectedIndex") var selectedIndex = 0
/// }
/// let list = PhotoListState()
/// list.observe(\.$selectedIndex) { print("selected", $0) }
/// list.selectedIndex = 1   // prints "selected 1"
/// ```
public protocol ObservableState: AnyObject, Sendable {}

extension ObservableState {
    /// Observes the property at `keyPath`; the same as `self[keyPath: keyPath].observe`.
    ///
    /// ```swift
    /// list.observe(\.$selectedIndex, .initial) { print($0) }
    /// ```
    ///
    /// - Returns: A token that ends the observation.
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
    /// ```swift
    /// list.observe(\.$selectedIndex, owner: store) { store, index in store.select(index) }
    /// ```
    ///
    /// - Returns: A token that ends the observation earlier.
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

    /// A path from this state through its sub-states, starting at the property at `keyPath`.
    ///
    /// ```swift
    /// let url = screen.path(\.$image).then(\.$url)
    /// ```
    public func path<Value>(
        _ keyPath: KeyPath<Self, ObservedProperty<Value>>
    ) -> ObservedPath<Value> {
        ObservedPath(self[keyPath: keyPath])
    }
}
