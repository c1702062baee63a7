import ActionPipeConcurrency

/// The context of one call of an action, passed `inout` to each handler that runs: the
/// upstream value, typed side data, arguments a handler may rewrite for the handlers after
/// it, and ``stop()``.
///
/// ```swift
/// pipe1.on(\.someFunc) { process in
///     process.rewrite(\.1, to: "changed")   // later handlers see "changed"
///     return 1
/// }
/// pipe2.on(\.someFunc) { process in process.upstream }   // Optional(1.0)
/// ```
///
/// A nested call gets a process of its own. The process is noncopyable, so a handler
/// cannot keep it: to act on the chain later, keep its ``trigger``. It is `Sendable` when
/// the arguments and result are, so an async handler may be actor-isolated.
public struct ActionProcess<Kind, each Argument, Result>: ~Copyable {
    @usableFromInline var _arguments: (repeat each Argument)

    /// The result of the last handler that ran before this one; `nil` for the first, and
    /// after a handler that returned `nil`. A handler that forwards it returns it.
    public var upstream: Result? { _upstream }
    @usableFromInline var _upstream: Result?
    /// Whether the call has a state and is stopped: a byte of `_upstream`'s padding, not a
    /// word (the process lives in the caller's frame, per nesting level).
    @usableFromInline var _flags: UInt8
    /// Meaningful when `_flags` has ``_hasState``.
    @usableFromInline let _stateBits: UInt64

    @inlinable static var _hasState: UInt8 { 1 }
    @inlinable static var _stopped: UInt8 { 2 }

    /// The state the call was made with, or `nil` for a plain call.
    @inlinable
    public var state: ActionState? {
        _flags & Self._hasState == 0 ? nil : ActionState(rawValue: _stateBits)
    }

    /// Whether a handler of this call has called ``stop()``.
    public var isStopped: Bool { _isStopped }
    @inlinable var _isStopped: Bool { _flags & Self._stopped != 0 }

    /// Typed values that earlier handlers (or the caller) attached for later handlers.
    public var sideData: SideData

    /// Unretained: the caller holds it, and the noncopyable process cannot outlive the call.
    @usableFromInline let _origin: Unretained<_Member>
    @usableFromInline let _key: _ActionKey

    @inlinable @inline(__always)
    init(
        arguments: (repeat each Argument), state: ActionState?, sideData: SideData,
        origin: Unretained<_Member>, key: _ActionKey
    ) {
        self._arguments = (repeat each arguments)
        self._flags = state == nil ? 0 : Self._hasState
        self._stateBits = state?.rawValue ?? 0
        self.sideData = sideData
        self._origin = origin
        self._key = key
    }

    /// The arguments as the next handler will see them, with every rewrite so far applied.
    public var arguments: (repeat each Argument) { _arguments }

    /// Replaces the argument at `position` (`\.0`, or `\.self` for a one-argument action)
    /// for the handlers that run after this one; the running handler's parameters stay.
    public mutating func rewrite<Value>(
        _ position: WritableKeyPath<(repeat each Argument), Value>, to value: Value
    ) {
        _arguments[keyPath: position] = value
    }

    /// Replaces all arguments at once for the handlers that run after this one.
    public mutating func rewriteArguments(_ arguments: repeat each Argument) {
        _arguments = (repeat each arguments)
    }

    /// Ends the call after the running handler, whose return value is still the result;
    /// the call's ``ActionReport`` says which pipe stopped it.
    public mutating func stop() { _flags |= Self._stopped }

    /// A handle that calls this action again from the chain's head later (with `.success`
    /// once async work is done, say); see ``ActionTrigger``. It keeps nothing alive, and
    /// follows its pipe into any later chain.
    public var trigger: ActionTrigger<Kind, repeat each Argument, Result> {
        ActionTrigger(member: WeakBox(_origin.object), key: _key)
    }

    /// The name of the action being called.
    public var actionName: String { _key.name }
}

// The process moves between the caller and an isolated async handler one at a time
// (`inout`, noncopyable), and its own stored properties are `Sendable`.
extension ActionProcess: Sendable where repeat each Argument: Sendable, Result: Sendable {}
