/// The untyped part of a registered handler, which the snapshot stores; subclassed by the
/// typed handlers. `@unchecked Sendable`: every stored property is immutable and `Sendable`.
@usableFromInline
class _AnyHandler: @unchecked Sendable {
    // In this order so the flags pack behind `state`.
    /// Distinguishes registrations, so a stale ``RegistrationToken`` removes nothing.
    @usableFromInline let id: UInt64
    @usableFromInline let state: ActionState?
    /// The first condition is "there is an upstream value" (the commonest), checked inline.
    @usableFromInline let requiresUpstream: Bool
    /// A failed ``requiresUpstream`` reports `.upstreamNil` (`upstreamNotNil()`), else
    /// `.upstreamNotOfType` of the result type (`upstream(is:)`).
    @usableFromInline let upstreamFailureIsNil: Bool
    /// Conditions beyond its state and ``requiresUpstream``.
    @usableFromInline let hasConditions: Bool
    /// No state, no condition, no target: the hot path calls it without checking.
    @usableFromInline let isUnconditional: Bool
    @usableFromInline let isTargetless: Bool
    /// Only a state and the upstream's presence can skip it.
    @usableFromInline let isSimple: Bool
    /// The user closure takes no target (call `plain`). Here, where it packs.
    @usableFromInline let hasPlain: Bool
    @usableFromInline let target: _Target

    /// `upstreamFailure`: see ``HandlerRegistration/upstreamFailure``.
    @usableFromInline
    init(
        state: ActionState?, upstreamFailure: SkipReason?, target: _Target, hasConditions: Bool,
        hasPlain: Bool = false
    ) {
        self.id = RegistrationToken.nextID()
        self.hasPlain = hasPlain
        self.state = state
        self.target = target
        self.requiresUpstream = upstreamFailure != nil
        self.upstreamFailureIsNil = upstreamFailure == .upstreamNil
        self.hasConditions = hasConditions
        isTargetless = if case .none = target { true } else { false }
        isUnconditional = isTargetless && state == nil && upstreamFailure == nil && !hasConditions
        isSimple = isTargetless && !hasConditions
    }
}

extension _AnyHandler {
    /// The whole of `skipReason` for a simple handler, without building a reason.
    @inlinable @inline(__always)
    func passesSimpleChecks(_ callState: ActionState?, hasUpstream: Bool) -> Bool {
        if let state, let callState, !state.runs(in: callState) { return false }
        return hasUpstream || !requiresUpstream
    }

    /// Why this handler must not run, or `nil` with `object` set to its target; cheapest first.
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
                if let reason = condition(&process) { return reason }
            }
        }
        if isTargetless { return nil }
        let resolved = target.resolved
        if resolved.released { return .targetReleased }
        object = resolved.object
        return nil
    }
}
