/// Returns why the handler must be skipped, or `nil`.
@usableFromInline
typealias _Condition<Kind, each Argument, Result> =
    @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) -> SkipReason?

/// Whether `value` is `nil`, looking through nested optionals (`Any?` holding `nil`).
@usableFromInline
func _isNil(_ value: Any) -> Bool {
    (value as? any _OptionalValue)?._isNilDeep ?? false
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
