import ActionPipeConcurrency

/// The context of one call of an action: what a handler knows about the call so far, and
/// how it shapes what the handlers after it see.
///
/// Every call gets its own process, passed `inout` to each handler that runs. A handler
/// reads the upstream value (the result of the last handler that ran), reads and writes
/// typed side data, rewrites arguments for the handlers after it, and may stop the call.
///
/// ```swift
/// pipe1.on(\.someFunc) { process in
///     let (number, _) = process.arguments
///     process.sideData[.robotName] = "Robot No.\(number)"
///     process.rewrite(\.1, to: "changed")       // later handlers see "changed"
///     return 1
/// }
/// pipe2.on(\.someFunc) { process in
///     print(process.upstream as Any)            // Optional(1.0)
///     print(process.arguments.1 as Any)         // Optional("changed")
///     return 2
/// }
/// ```
///
/// A nested call made from inside a handler gets a process of its own; the outer process
/// is untouched by it.
///
/// The process is noncopyable: it exists only for the duration of the call, and a handler
/// cannot keep it. To act on the chain later, keep its ``trigger``.
///
/// `Kind` is the action's ``ActionKind``: it decides what the ``trigger`` can do (a
/// synchronous, throwing or async call). The process is `Sendable` when the arguments and
/// the result are, which lets an async handler be isolated to an actor
/// (`{ @MainActor process in ... }`).
public struct ActionProcess<Kind, each Argument, Result>: ~Copyable {
    @usableFromInline var _arguments: (repeat each Argument)

    /// The result of the last handler that ran before this one; `nil` for the first handler
    /// that runs, and after a handler that returned `nil`.
    ///
    /// Return values do not flow through on their own: a handler that wants to forward
    /// the upstream value returns it.
    ///
    /// ```swift
    /// pipe2.on(\.someFunc) { process in process.upstream }   // forwards pipe1's value
    /// ```
    public var upstream: Result? { _upstream }
    @usableFromInline var _upstream: Result?
    /// Whether the call has a state, and whether it is stopped. Right after `_upstream`, so
    /// it takes a byte of the optional's padding instead of a word of its own: the process
    /// lives in the caller's frame, once per nesting level.
    @usableFromInline var _flags: UInt8
    /// The call's state bits; meaningful when `_flags` has ``_hasState``.
    @usableFromInline let _stateBits: UInt64

    /// In `_flags`: the call has a state.
    @inlinable static var _hasState: UInt8 { 1 }
    /// In `_flags`: a handler called ``stop()``.
    @inlinable static var _stopped: UInt8 { 2 }

    /// The state the call was made with, or `nil` for a plain call.
    ///
    /// ```swift
    /// pipe.on(\.load) { process in process.state == .success ? "done" : "loading" }
    /// ```
    @inlinable
    public var state: ActionState? {
        _flags & Self._hasState == 0 ? nil : ActionState(rawValue: _stateBits)
    }

    /// Whether a handler of this call has called ``stop()``.
    ///
    /// ```swift
    /// if process.isStopped { return nil }
    /// ```
    public var isStopped: Bool { _isStopped }
    /// Set by ``stop()``.
    @inlinable var _isStopped: Bool { _flags & Self._stopped != 0 }

    /// Typed values that earlier handlers (or the caller) attached for later handlers.
    ///
    /// ```swift
    /// process.sideData[.birthday] = Date()
    /// let date = process.sideData[.birthday]    // Date?
    /// ```
    public var sideData: SideData

    /// The member of the pipe the call was made on (or of the trigger's pipe); alive for the
    /// whole call because the caller holds it, and the process cannot outlive the call
    /// because it is noncopyable. Kept unmanaged so a call does not retain and release it.
    @usableFromInline let _origin: Unretained<_Member>
    @usableFromInline let _key: _ActionKey

    /// A process that starts with the options' state and side data. Side data is copied
    /// only when the call has some, so a plain call builds an empty one in place.
    @inlinable @inline(__always)
    init(
        arguments: (repeat each Argument), options: borrowing _CallOptions,
        origin: Unretained<_Member>, key: _ActionKey
    ) {
        self._arguments = (repeat each arguments)
        self._flags = options.state == nil ? 0 : Self._hasState
        self._stateBits = options.state?.rawValue ?? 0
        self.sideData = SideData()
        self._origin = origin
        self._key = key
        if options.hasSideData {
            self.sideData = options.sideData
        }
    }

    /// A process that starts with `state` and `sideData`.
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

    /// The arguments as the next handler will see them: the caller's, with every rewrite
    /// made so far applied.
    ///
    /// ```swift
    /// let (number, object) = process.arguments
    /// ```
    public var arguments: (repeat each Argument) { _arguments }

    /// Replaces the argument at `position` for the handlers that run after this one.
    ///
    /// The position is a key path into the argument tuple, so it is checked at compile
    /// time (`\.0` is the first argument; for a one-argument action it is `\.self`), and
    /// the new value must have the argument's type. The running handler's own parameters
    /// do not change.
    ///
    /// ```swift
    /// process.rewrite(\.1, to: "a new object")
    /// ```
    public mutating func rewrite<Value>(
        _ position: WritableKeyPath<(repeat each Argument), Value>, to value: Value
    ) {
        _arguments[keyPath: position] = value
    }

    /// Replaces all arguments at once for the handlers that run after this one.
    ///
    /// ```swift
    /// process.rewriteArguments(1000, "replaced")
    /// ```
    public mutating func rewriteArguments(_ arguments: repeat each Argument) {
        _arguments = (repeat each arguments)
    }

    /// Ends the call after the running handler: no later handler runs, and the call's
    /// ``ActionReport`` says which pipe stopped it. The running handler's return value is
    /// still the call's result.
    ///
    /// ```swift
    /// pipe1.on(\.validate) { process in
    ///     process.stop()
    ///     return false
    /// }
    /// ```
    public mutating func stop() { _flags |= Self._stopped }

    /// A handle that calls this action again from the chain's head later, for example with
    /// the `.success` state once asynchronous work is done (the original's root-pipe
    /// re-trigger).
    ///
    /// The trigger does not keep the chain alive: once every pipe of the chain is gone,
    /// calling it does nothing and returns `nil`. It follows the pipe it came from into
    /// whatever chain that pipe is in when it is called.
    ///
    /// ```swift
    /// pipe.on(\.load).state(.start).handle { process in
    ///     let trigger = process.trigger
    ///     Task { trigger.call(state: .success, "data") }
    ///     return nil
    /// }
    /// ```
    public var trigger: ActionTrigger<Kind, repeat each Argument, Result> {
        ActionTrigger(member: _origin.object, key: _key)
    }

    /// The name of the action being called, as written in ``Actions``.
    ///
    /// ```swift
    /// print(process.actionName)   // "someFunc"
    /// ```
    public var actionName: String { _key.name }
}

// The process moves between the caller and an actor-isolated async handler, one at a time
// (it is passed `inout` and is noncopyable), so it may cross isolation when what it carries
// may: its own stored properties (state, side data, key, unmanaged origin) are `Sendable`.
extension ActionProcess: Sendable where repeat each Argument: Sendable, Result: Sendable {}
