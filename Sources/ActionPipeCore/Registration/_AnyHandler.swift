import ActionPipeConcurrency
import Synchronization

/// The untyped part of a registered handler, which the chain snapshot stores.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`, and is itself
/// `Sendable`; the class is not final only so that the typed handlers (``_SyncHandler`` and its
/// throwing and async siblings) can extend it and
/// the hot path can borrow it as its subclass without a dynamic cast.
@usableFromInline
class _AnyHandler: @unchecked Sendable {
    // Stored in this order so that the flags pack behind `state`: the handler object is
    // most of a one-handler pipe's memory.
    /// Distinguishes registrations, so a stale ``RegistrationToken`` removes nothing.
    @usableFromInline let id: UInt64
    @usableFromInline let state: ActionState?
    /// Whether the first condition is "there is an upstream value" (`upstream(is:)` of the
    /// result type, `upstreamNotNil()`): the commonest condition, checked inline.
    @usableFromInline let requiresUpstream: Bool
    /// Whether a failed ``requiresUpstream`` reports `.upstreamNil` (from
    /// `upstreamNotNil()`); else it reports `.upstreamNotOfType` of the result type (from
    /// `upstream(is:)`).
    @usableFromInline let upstreamFailureIsNil: Bool
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
    /// Whether a sync or async handler's user closure has no target parameter (its `plain`
    /// closure is the one to call). Here rather than in those subclasses, where a flag after
    /// the closures would take a word of its own.
    @usableFromInline let hasPlain: Bool
    /// The object the handler runs with, if it has one.
    @usableFromInline let target: _Target

    /// `upstreamFailure` is set when the handler's first condition was "there is an
    /// upstream value" (see ``_hoistUpstreamRequirement(_:)``); `hasConditions` says
    /// whether any condition remains.
    @usableFromInline
    init(
        state: ActionState?, target: _Target, upstreamFailure: SkipReason?, hasConditions: Bool,
        hasPlain: Bool = false
    ) {
        self.id = RegistrationToken.nextID()
        self.hasPlain = hasPlain
        self.state = state
        self.target = target
        self.requiresUpstream = upstreamFailure != nil
        self.upstreamFailureIsNil = upstreamFailure == .upstreamNil
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
@inlinable
func _hoistUpstreamRequirement<Kind, each Argument, Result>(
    _ conditions: inout [_Condition<Kind, repeat each Argument, Result>]
) -> SkipReason? {
    guard let first = conditions.first, first.check == nil, let reason = first.reason else {
        return nil
    }
    conditions.removeFirst()
    return reason
}

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
        if requiresUpstream, process._upstream == nil {
            return upstreamFailureIsNil
                ? .upstreamNil : .upstreamNotOfType(String(describing: Result.self))
        }
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
