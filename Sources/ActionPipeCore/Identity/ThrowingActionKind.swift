/// The kind of every throwing action, whatever its error type: lets the methods of a
/// throwing action's ``BoundAction``, ``HandlerRegistration`` and ``ActionTrigger`` name
/// the action's `Failure`.
///
/// Only ``ActionKind/Throwing`` conforms; you do not conform to it yourself.
///
/// ```swift
/// func failureName<Kind: ThrowingActionKind>(_: Kind.Type) -> String {
///     String(describing: Kind.Failure.self)
/// }
/// failureName(ActionKind.Throwing<ParseError>.self)   // "ParseError"
/// ```
public protocol ThrowingActionKind: Sendable {
    /// The error type that the action's handlers throw.
    associatedtype Failure: Error
}

extension ActionKind.Throwing: ThrowingActionKind {}
