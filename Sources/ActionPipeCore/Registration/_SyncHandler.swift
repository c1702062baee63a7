import ActionPipeConcurrency
import Synchronization

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
    /// The body of a handler with a target, in an object of its own; `nil` when `plain` is
    /// set. Not an optional closure: specialised code calls an optional closure of these
    /// generic types through an adapting closure, allocated at every call, while a closure
    /// stored as a class's `let` is called as is. (A placeholder closure instead would
    /// capture the types' metadata: an allocation per handler.)
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

/// The body of a sync handler with a target (see ``_SyncHandler/targeted``).
@usableFromInline
final class _SyncTargetedBody<each Argument, Result>: Sendable {
    @usableFromInline let body: _SyncHandler<repeat each Argument, Result>.Body

    @usableFromInline
    init(_ body: @escaping _SyncHandler<repeat each Argument, Result>.Body) {
        self.body = body
    }
}
