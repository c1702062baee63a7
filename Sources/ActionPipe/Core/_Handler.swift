import ActionPipeKernel
import Synchronization

/// How a handler refers to its target object.
@usableFromInline
enum _Target: Sendable {
    /// A closure handler without a target.
    case none
    /// A target held weakly; the handler is skipped once it is gone.
    case weak(WeakBox<AnyObject & Sendable>)
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

/// The untyped part of a registered handler, which the chain snapshot stores.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, and is itself
/// `Sendable`; the class is not final only so that the typed handlers (``_SyncHandler`` and its
/// throwing and async siblings) can extend it and
/// the hot path can `unsafeDowncast` to it without a dynamic cast.
@usableFromInline
class _AnyHandler: @unchecked Sendable {
    /// Distinguishes registrations, so a stale ``HandlerToken`` removes nothing.
    @usableFromInline let id: UInt64
    @usableFromInline let state: ActionState?
    @usableFromInline let target: _Target
    /// Whether the first condition is "there is an upstream value" (`upstream(is:)` of the
    /// result type, `upstreamNotNil()`): the commonest condition, checked inline.
    @usableFromInline let requiresUpstream: Bool
    /// What a failed ``requiresUpstream`` reports.
    @usableFromInline let upstreamFailure: SkipReason
    /// Whether the handler has conditions beyond its state and ``requiresUpstream``; lets
    /// the hot path skip them.
    @usableFromInline let hasConditions: Bool
    /// No state, no condition and no target: the handler always runs, with no target, so
    /// the hot path calls it without checking anything.
    @usableFromInline let isUnconditional: Bool
    /// A closure handler, without a target to resolve.
    @usableFromInline let isTargetless: Bool
    /// Whether only a state and the upstream's presence can skip it: no condition
    /// closures and no target.
    @usableFromInline let isSimple: Bool

    /// `upstreamFailure` is set when the handler's first condition was "there is an
    /// upstream value" (see ``_hoistUpstreamRequirement(_:)``); `hasConditions` says
    /// whether any condition remains.
    init(
        state: ActionState?, target: _Target, upstreamFailure: SkipReason?, hasConditions: Bool
    ) {
        self.id = _handlerIDs.next()
        self.state = state
        self.target = target
        self.requiresUpstream = upstreamFailure != nil
        self.upstreamFailure = upstreamFailure ?? .upstreamNil
        self.hasConditions = hasConditions
        if case .none = target {
            isTargetless = true
            isUnconditional = state == nil && upstreamFailure == nil && !hasConditions
        } else {
            isTargetless = false
            isUnconditional = false
        }
        isSimple = isTargetless && !hasConditions
    }
}

/// Removes the first condition when it is "there is an upstream value", returning what
/// its failure reports, so the handler can check it inline. Only the first is hoisted,
/// which keeps the order in which conditions are checked (a trace reports the same first
/// failure).
func _hoistUpstreamRequirement<Kind, each Argument, Result>(
    _ conditions: inout [_Condition<Kind, repeat each Argument, Result>]
) -> SkipReason? {
    guard let first = conditions.first, first.check == nil, let reason = first.reason else {
        return nil
    }
    conditions.removeFirst()
    return reason
}

private let _handlerIDs = IDSource()

extension _AnyHandler {
    /// Whether the handler runs in the call `process` describes (its upstream value
    /// already set): `nil` to run it, with `object` set to its target if it has one, or why
    /// it is skipped. The one skip decision of the dispatch loop (`_Dispatch`, for sync,
    /// throwing and async calls): an unconditional handler costs one test, a simple one two
    /// inline tests (its reason is built only when it is skipped), any other the full check.
    @inlinable @inline(__always)
    func skipDecision<Kind, each Argument, Result>(
        _ conditions: @autoclosure () -> [_Condition<Kind, repeat each Argument, Result>],
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>,
        target object: inout AnyObject?
    ) -> SkipReason? {
        if isUnconditional { return nil }
        if isSimple, passesSimpleChecks(process.state, hasUpstream: process._upstream != nil) {
            return nil
        }
        return skipReason(conditions(), &process, target: &object)
    }

    /// Whether the state and upstream-presence checks pass: the whole of `skipReason` for
    /// a handler with no condition closures and no target, without building a reason.
    @inlinable @inline(__always)
    func passesSimpleChecks(_ callState: ActionState?, hasUpstream: Bool) -> Bool {
        if let state, let callState, !state.runs(in: callState) { return false }
        return hasUpstream || !requiresUpstream
    }

    /// Why this handler must not run in the call described by `process` (whose upstream
    /// value is already set), or `nil` with `target` set to the object to run it with.
    ///
    /// Checked in the order that is cheapest first: the state bits, then the conditions,
    /// then the weak target.
    @inlinable @inline(__always)
    func skipReason<Kind, each Argument, Result>(
        _ conditions: @autoclosure () -> [_Condition<Kind, repeat each Argument, Result>],
        _ process: inout ActionProcess<Kind, repeat each Argument, Result>,
        target object: inout AnyObject?
    ) -> SkipReason? {
        if let handlerState = state, let callState = process.state,
            !handlerState.runs(in: callState)
        {
            return .stateMismatch(handler: handlerState, call: callState)
        }
        if requiresUpstream, process._upstream == nil { return upstreamFailure }
        if hasConditions {
            for condition in conditions() {
                if let reason = condition.failure(&process) { return reason }
            }
        }
        if isTargetless { return nil }
        let resolved = target.resolved
        if resolved.released { return .targetReleased }
        object = resolved.object
        return nil
    }
}

/// A handler of a synchronous ``Action``, with its typed body and conditions.
///
/// The three handler classes (sync, throwing, async) repeat their two stored properties
/// instead of sharing a generic base class: Swift cannot subclass a class that declares a
/// type pack. `@unchecked Sendable` as for ``_AnyHandler``: the added properties are
/// immutable and `Sendable` too (the same holds for the two siblings below).
@usableFromInline
final class _SyncHandler<each Argument, Result>: _AnyHandler, @unchecked Sendable {
    @usableFromInline typealias Process = ActionProcess<
        ActionKind.Sync, repeat each Argument, Result
    >
    @usableFromInline typealias Body = @Sendable (AnyObject?, inout Process) -> Result?
    @usableFromInline typealias PlainBody = @Sendable (inout Process) -> Result?

    /// The user's closure of a handler without a target, stored as written so a call
    /// makes one indirect call, not two through an adapting closure. Not optional: a call
    /// through an optional closure copies it out first (a retain and a release of its
    /// context per handler, two atomic operations), while a `let` closure of a borrowed
    /// handler is called as is. A placeholder when `hasPlain` is false.
    @usableFromInline let plain: PlainBody
    @usableFromInline let hasPlain: Bool
    /// The body of a handler with a target; `nil` when `plain` is set.
    @usableFromInline let body: Body?
    @usableFromInline let conditions: [_Condition<ActionKind.Sync, repeat each Argument, Result>]

    init(
        state: ActionState?, target: _Target,
        conditions: [_Condition<ActionKind.Sync, repeat each Argument, Result>],
        plain: PlainBody?, body: Body?
    ) {
        self.plain = plain ?? { _ in nil }
        self.hasPlain = plain != nil
        self.body = body
        var conditions = conditions
        let upstreamFailure = _hoistUpstreamRequirement(&conditions)
        self.conditions = conditions
        super.init(
            state: state, target: target, upstreamFailure: upstreamFailure,
            hasConditions: !conditions.isEmpty)
    }
}

/// A handler of a ``ThrowingAction``: its body throws the action's `Failure`.
@usableFromInline
final class _ThrowingHandler<Kind: ThrowingActionKind, each Argument, Result>: _AnyHandler,
    @unchecked Sendable
{
    @usableFromInline typealias Process = ActionProcess<Kind, repeat each Argument, Result>
    @usableFromInline typealias Body =
        @Sendable (AnyObject?, inout Process) throws(Kind.Failure) -> Result?

    @usableFromInline let body: Body
    @usableFromInline let conditions: [_Condition<Kind, repeat each Argument, Result>]

    init(
        state: ActionState?, target: _Target,
        conditions: [_Condition<Kind, repeat each Argument, Result>], body: @escaping Body
    ) {
        self.body = body
        var conditions = conditions
        let upstreamFailure = _hoistUpstreamRequirement(&conditions)
        self.conditions = conditions
        super.init(
            state: state, target: target, upstreamFailure: upstreamFailure,
            hasConditions: !conditions.isEmpty)
    }
}

/// A handler of an ``AsyncAction``: its body may suspend and throw.
@usableFromInline
final class _AsyncHandler<each Argument, Result>: _AnyHandler, @unchecked Sendable {
    @usableFromInline typealias Process = ActionProcess<
        ActionKind.Async, repeat each Argument, Result
    >
    @usableFromInline typealias Body =
        nonisolated(nonsending) @Sendable (AnyObject?, inout Process) async throws -> Result?
    @usableFromInline typealias PlainBody =
        nonisolated(nonsending) @Sendable (inout Process) async throws -> Result?
    @usableFromInline typealias SyncBody = @Sendable (inout Process) -> Result?

    /// The user's closure of a handler without a target, called directly: each level of
    /// async call costs a frame in the task allocator. Not optional, for the reason given
    /// in `_SyncHandler`; a placeholder when `hasPlain` is false.
    @usableFromInline let plain: PlainBody
    @usableFromInline let hasPlain: Bool
    /// A handler written as a synchronous closure (it never awaits), called without an
    /// async call: no frame to allocate, no continuation to resume. A placeholder when
    /// `isSync` is false.
    @usableFromInline let sync: SyncBody
    @usableFromInline let isSync: Bool
    /// The body of a handler with a target; `nil` when `plain` is set.
    @usableFromInline let body: Body?
    @usableFromInline let conditions: [_Condition<ActionKind.Async, repeat each Argument, Result>]

    init(
        state: ActionState?, target: _Target,
        conditions: [_Condition<ActionKind.Async, repeat each Argument, Result>],
        plain: PlainBody?, body: Body?, sync: SyncBody? = nil
    ) {
        self.plain = plain ?? { _ in nil }
        self.hasPlain = plain != nil
        self.sync = sync ?? { _ in nil }
        self.isSync = sync != nil
        self.body = body
        var conditions = conditions
        let upstreamFailure = _hoistUpstreamRequirement(&conditions)
        self.conditions = conditions
        super.init(
            state: state, target: target, upstreamFailure: upstreamFailure,
            hasConditions: !conditions.isEmpty)
    }
}

/// One condition of a handler: returns why the handler must be skipped, or `nil`.
@usableFromInline
struct _Condition<Kind, each Argument, Result>: Sendable {
    /// The general form: a closure that returns why the handler must be skipped.
    @usableFromInline let check:
        (@Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) -> SkipReason?)?
    /// The most common condition, "there is an upstream value", checked inline without
    /// calling a closure; `reason` is what a failure reports.
    @usableFromInline let reason: SkipReason?

    init(
        check:
            @escaping @Sendable (inout ActionProcess<Kind, repeat each Argument, Result>) ->
            SkipReason?
    ) {
        self.check = check
        self.reason = nil
    }

    /// A condition that holds when the call has an upstream value.
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
