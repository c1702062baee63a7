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

    @usableFromInline
    init(
        _ registration: HandlerRegistration<Kind, repeat each Argument, Result>, target: _Target,
        body: @escaping Body
    ) {
        self.body = body
        conditions = registration.conditions
        super.init(
            state: registration.handlerState, upstreamFailure: registration.upstreamFailure,
            target: target, hasConditions: !conditions.isEmpty)
    }
}
