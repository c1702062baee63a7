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

    /// As in `_SyncHandler`: a placeholder when `hasPlain` is false.
    @usableFromInline let plain: PlainBody
    /// A handler that never awaits; a placeholder when `isSync` is false.
    @usableFromInline let sync: SyncBody
    /// As `_SyncHandler.targeted`.
    @usableFromInline let targeted: _AsyncTargetedBody<repeat each Argument, Result>?
    @usableFromInline let conditions: [_Condition<ActionKind.Async, repeat each Argument, Result>]
    /// Last, so it packs.
    @usableFromInline let isSync: Bool

    /// `body` for a handler with a target, `plain` without, `sync` for one that never awaits.
    init(
        _ registration: HandlerRegistration<ActionKind.Async, repeat each Argument, Result>,
        target: _Target = .none, body: Body? = nil, plain: PlainBody? = nil, sync: SyncBody? = nil
    ) {
        self.plain = plain ?? { _ in nil }
        self.sync = sync ?? { _ in nil }
        self.isSync = sync != nil
        targeted = body.map(_AsyncTargetedBody.init)
        conditions = registration.conditions
        super.init(
            state: registration.handlerState, upstreamFailure: registration.upstreamFailure,
            target: target, hasConditions: !registration.conditions.isEmpty,
            hasPlain: plain != nil)
    }
}

@usableFromInline
final class _AsyncTargetedBody<each Argument, Result>: Sendable {
    @usableFromInline let body: _AsyncHandler<repeat each Argument, Result>.Body

    init(_ body: @escaping _AsyncHandler<repeat each Argument, Result>.Body) {
        self.body = body
    }
}
