/// A handler of a synchronous ``Action``. The handler classes repeat their stored
/// properties: Swift cannot subclass a class declaring a type pack.
@usableFromInline
final class _SyncHandler<each Argument, Result>: _AnyHandler, @unchecked Sendable {
    @usableFromInline typealias Process = ActionProcess<
        ActionKind.Sync, repeat each Argument, Result
    >
    @usableFromInline typealias Body = @Sendable (AnyObject?, inout Process) -> Result?
    @usableFromInline typealias PlainBody = @Sendable (inout Process) -> Result?

    /// The closure of a targetless handler, as written; a placeholder when `hasPlain` is
    /// false (calling an optional closure copies it out, retaining its context).
    @usableFromInline let plain: PlainBody
    /// The body of a handler with a target; `nil` when `plain` is set. An object: an optional
    /// closure of these generic types is called through a closure allocated per call.
    @usableFromInline let targeted: _SyncTargetedBody<repeat each Argument, Result>?
    @usableFromInline let conditions: [_Condition<ActionKind.Sync, repeat each Argument, Result>]

    /// A targetless handler takes `plain`, one with a target `body`.
    @inlinable
    init(
        _ registration: HandlerRegistration<ActionKind.Sync, repeat each Argument, Result>,
        target: _Target = .none, body: Body? = nil, plain: PlainBody? = nil
    ) {
        if case .none = target { assert(plain != nil) } else { assert(plain == nil) }
        self.plain = plain ?? { _ in nil }
        targeted = body.map(_SyncTargetedBody.init)
        conditions = registration.conditions
        super.init(
            state: registration.handlerState, upstreamFailure: registration.upstreamFailure,
            target: target, hasConditions: !conditions.isEmpty, hasPlain: plain != nil
        )
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
