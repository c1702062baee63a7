/// The kinds of action: the first generic argument of ``BoundAction``, ``ActionProcess``,
/// ``HandlerRegistration`` and ``ActionTrigger``, deciding at compile time how a call runs.
///
/// | Declared as                          | Kind                       | Handlers        | Call                     |
/// |--------------------------------------|----------------------------|-----------------|--------------------------|
/// | `Action<Int, String>`                | ``Sync``                   | plain closures  | `pipe.x(1)`              |
/// | `ThrowingAction<Int, String, E>`     | ``Throwing```<E>`          | `throws(E)`     | `try pipe.x(1)`          |
/// | `AsyncAction<Int, String>`           | ``Async``                  | `async throws`  | `try await pipe.x(1)`    |
public enum ActionKind: Sendable {
    /// The kind of an ``Action``: handlers and calls are synchronous and cannot throw.
    public enum Sync: Sendable {}

    /// The kind of a ``ThrowingAction``: a handler's `Failure` ends the call and reaches
    /// the caller unchanged.
    public enum Throwing<Failure: Error>: Sendable {}

    /// The kind of an ``AsyncAction``: handlers may suspend and throw; the call is
    /// cancellable.
    public enum Async: Sendable {}
}
