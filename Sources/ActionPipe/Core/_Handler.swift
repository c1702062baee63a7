import Synchronization

/// How a handler refers to its target object.
@usableFromInline
enum _Target: Sendable {
    /// A closure handler without a target.
    case none
    /// A target held weakly; the handler is skipped once it is gone.
    case weak(_WeakTarget)
    /// A target held strongly, for as long as the handler is registered.
    case strong(AnyObject & Sendable)

    /// The target to pass to the handler; `nil` with `released == true` when a weak target
    /// is gone.
    @inlinable
    var resolved: (object: AnyObject?, released: Bool) {
        switch self {
        case .none: (nil, false)
        case .strong(let object): (object, false)
        case .weak(let box):
            if let object = box.object { (object, false) } else { (nil, true) }
        }
    }
}

/// A weak reference that can be shared across threads.
@usableFromInline
final class _WeakTarget: Sendable {
    @usableFromInline weak let object: (AnyObject & Sendable)?
    init(_ object: AnyObject & Sendable) { self.object = object }
}

/// The untyped part of a registered handler, which the chain snapshot stores.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, and is itself
/// `Sendable`; the class is not final only so that the typed ``_Handler`` can extend it and
/// the hot path can `unsafeDowncast` to it without a dynamic cast.
@usableFromInline
class _AnyHandler: @unchecked Sendable {
    /// Distinguishes registrations, so a stale ``HandlerToken`` removes nothing.
    @usableFromInline let id: UInt64
    @usableFromInline let state: ActionState?
    @usableFromInline let target: _Target
    /// Whether the handler has conditions beyond its state; lets the hot path skip them.
    @usableFromInline let hasConditions: Bool

    init(state: ActionState?, target: _Target, hasConditions: Bool) {
        self.id = _handlerIDs.add(1, ordering: .relaxed).newValue
        self.state = state
        self.target = target
        self.hasConditions = hasConditions
    }
}

private let _handlerIDs = Atomic<UInt64>(0)

/// A handler of one action, with its typed body and conditions.
@usableFromInline
final class _Handler<each Argument, Result>: _AnyHandler, @unchecked Sendable {
    @usableFromInline typealias Body =
        @Sendable (AnyObject?, inout ActionProcess<repeat each Argument, Result>) -> Result?

    @usableFromInline let body: Body
    @usableFromInline let conditions: [_Condition<repeat each Argument, Result>]

    init(
        state: ActionState?, target: _Target,
        conditions: [_Condition<repeat each Argument, Result>], body: @escaping Body
    ) {
        self.body = body
        self.conditions = conditions
        super.init(state: state, target: target, hasConditions: !conditions.isEmpty)
    }

    /// The first condition that does not hold for `process`, as a skip reason.
    @inlinable
    func failedCondition(_ process: inout ActionProcess<repeat each Argument, Result>)
        -> SkipReason?
    {
        for condition in conditions {
            if let reason = condition.check(&process) { return reason }
        }
        return nil
    }
}

/// One condition of a handler: returns why the handler must be skipped, or `nil`.
@usableFromInline
struct _Condition<each Argument, Result>: Sendable {
    @usableFromInline let check:
        @Sendable (inout ActionProcess<repeat each Argument, Result>) -> SkipReason?
}

/// Whether `value` is `nil`, looking through nested optionals (`Any?` holding `nil`).
@usableFromInline
func _isNil(_ value: Any) -> Bool {
    guard let optional = value as? any _OptionalValue else { return false }
    return optional._isNilDeep
}

/// Lets ``_isNil(_:)`` look inside an optional whose wrapped type is unknown.
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
