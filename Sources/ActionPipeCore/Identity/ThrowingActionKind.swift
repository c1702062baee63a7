/// The kind of every throwing action, whatever its error type: lets the throwing methods
/// of ``BoundAction``, ``HandlerRegistration`` and ``ActionTrigger`` name `Failure`. Only
/// ``ActionKind/Throwing`` conforms.
public protocol ThrowingActionKind: Sendable {
    /// The error type that the action's handlers throw.
    associatedtype Failure: Error
}

extension ActionKind.Throwing: ThrowingActionKind {}
