import ActionPipeConcurrency
import Synchronization

/// A handler of a synchronous ``Action``. The three handler classes repeat their stored
/// properties rather than share a generic base: Swift cannot subclass a class declaring a
/// type pack. `@unchecked Sendable` as ``_AnyHandler`` (so are the siblings).
@usableFromInline
final class _SyncHandler<each Argument, Result>: _AnyHandler, @unchecked Sendable {
    @usableFromInline typealias Process = ActionProcess<
        ActionKind.Sync, repeat each Argument, Result
    >
    @usableFromInline typealias Body = @Sendable (AnyObject?, inout Process) -> Result?
    @usableFromInline typealias PlainBody = @Sendable (inout Process) -> Result?

    /// The user's closure of a targetless handler, stored as written (one indirect call).
    /// Not optional: calling an optional closure copies it out, retaining its context; a
    /// placeholder when `hasPlain` is false.
    @usableFromInline let plain: PlainBody
    /// The body of a handler with a target; `nil` when `plain` is set. In an object, not an
    /// optional closure: specialised code calls an optional closure of these generic types
    /// through an adapting closure allocated per call.
    @usableFromInline let targeted: _SyncTargetedBody<repeat each Argument, Result>?
    @usableFromInline let conditions: [_Condition<ActionKind.Sync, repeat each Argument, Result>]

    @inlinable
    init(
        state: ActionState?, target: _Target,
        conditions: [_Condition<ActionKind.Sync, repeat each Argument, Result>],
        plain: PlainBody?, body: Body?
    ) {
        // The plain loop runs `plain` exactly for the handlers without a target.
        if case .none = target { assert(plain != nil) } else { assert(plain == nil) }
        self.plain = plain ?? { _ in nil }
        if let body { targeted = _SyncTargetedBody(body) } else { targeted = nil }
        var conditions = conditions
        let upstreamFailure = _hoistUpstreamRequirement(&conditions)
        self.conditions = conditions
        super.init(
            state: state, target: target, upstreamFailure: upstreamFailure,
            hasConditions: !conditions.isEmpty, hasPlain: plain != nil)
    }
}

@usableFromInline
final class _SyncTargetedBody<each Argument, Result>: Sendable {
    @usableFromInline let body: _SyncHandler<repeat each Argument, Result>.Body

    @usableFromInline
    init(_ body: @escaping _SyncHandler<repeat each Argument, Result>.Body) {
        self.body = body
    }
}
