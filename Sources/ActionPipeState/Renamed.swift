// Names this part had before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: every part now returns RegistrationToken.
@available(*, deprecated, renamed: "RegistrationToken")
public typealias ObservationToken = RegistrationToken

extension ObservedProperty {
    /// Renamed: `observe(_:owner:retention:_:)`.
    @available(*, deprecated, renamed: "observe(_:owner:retention:_:)")
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], by owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        observe(options, owner: owner, retention: retention, handler)
    }
}

extension ObservedPath {
    /// Renamed: `observe(_:owner:retention:_:)`.
    @available(*, deprecated, renamed: "observe(_:owner:retention:_:)")
    @discardableResult
    public func observe<Owner: AnyObject & Sendable>(
        _ options: ObservationOptions = [], by owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        observe(options, owner: owner, retention: retention, handler)
    }
}

extension ObservableState {
    /// Renamed: `observe(_:_:owner:retention:_:)`.
    @available(*, deprecated, renamed: "observe(_:_:owner:retention:_:)")
    @discardableResult
    public func observe<Value, Owner: AnyObject & Sendable>(
        _ keyPath: KeyPath<Self, ObservedProperty<Value>>, _ options: ObservationOptions = [],
        by owner: Owner, retention: Retention = .weak,
        _ handler: @escaping @Sendable (Owner, Value) -> Void
    ) -> RegistrationToken {
        observe(keyPath, options, owner: owner, retention: retention, handler)
    }
}
