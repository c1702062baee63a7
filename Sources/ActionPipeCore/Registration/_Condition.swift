/// Returns why the handler must be skipped, or `nil`.
@usableFromInline
struct _Condition<Kind, each Argument, Result>: Sendable {
    @usableFromInline let check:
        (@Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) -> SkipReason?)?
    /// "There is an upstream value", checked inline; `reason` is what a failure reports.
    @usableFromInline let reason: SkipReason?

    init(
        check:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) ->
            SkipReason?
    ) {
        self.check = check
        self.reason = nil
    }

    init(requiringUpstream reason: SkipReason) {
        self.check = nil
        self.reason = reason
    }

    @inlinable @inline(__always)
    func failure(_ process: inout ActionProcess<Kind, repeat each Argument, Result>)
        -> SkipReason?
    {
        if let check { return check(&process) }
        return process._upstream == nil ? reason : nil
    }
}

/// Whether `value` is `nil`, looking through nested optionals (`Any?` holding `nil`).
@usableFromInline
func _isNil(_ value: Any) -> Bool {
    guard let optional = value as? any _OptionalValue else { return false }
    return optional._isNilDeep
}

@usableFromInline
protocol _OptionalValue {
    var _isNilDeep: Bool { get }
}

extension Optional: _OptionalValue {
    @usableFromInline
    var _isNilDeep: Bool {
        switch self {
        case .none: true
        case .some(let wrapped): _isNil(wrapped)
        }
    }
}
