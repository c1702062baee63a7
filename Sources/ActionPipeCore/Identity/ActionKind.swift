/// The kinds of action, used as the first generic argument of the types that carry an
/// action's call: ``BoundAction``, ``ActionProcess``, ``HandlerRegistration`` and
/// ``ActionTrigger``.
///
/// The kind decides how a call runs and what its handlers may do, at compile time:
///
/// | Declared as                          | Kind                       | Handlers        | Call                     |
/// |--------------------------------------|----------------------------|-----------------|--------------------------|
/// | `Action<Int, String>`                | ``Sync``                   | plain closures  | `pipe.x(1)`              |
/// | `ThrowingAction<Int, String, E>`     | ``Throwing```<E>`          | `throws(E)`     | `try pipe.x(1)`          |
/// | `AsyncAction<Int, String>`           | ``Async``                  | `async throws`  | `try await pipe.x(1)`    |
///
/// You rarely write a kind yourself; it shows up in the full name of a type:
///
/// ```swift
/// let trigger: ActionTrigger<ActionKind.Async, String, String>? = nil
/// ```
public enum ActionKind: Sendable {
    /// The kind of an ``Action``: handlers and calls are synchronous and cannot throw.
    ///
    /// ```swift
    /// extension Actions { var count: Action<String, Int> { .init() } }
    /// let call: BoundAction<ActionKind.Sync, String, Int> = pipe.count
    /// ```
    public enum Sync: Sendable {}

    /// The kind of a ``ThrowingAction``: handlers may throw a `Failure`, which ends the
    /// call and reaches the caller unchanged.
    ///
    /// ```swift
    /// extension Actions { var parse: ThrowingAction<String, Int, ParseError> { .init() } }
    /// let call: BoundAction<ActionKind.Throwing<ParseError>, String, Int> = pipe.parse
    /// ```
    public enum Throwing<Failure: Error>: Sendable {}

    /// The kind of an ``AsyncAction``: handlers may suspend and throw; the call is
    /// cancellable.
    ///
    /// ```swift
    /// extension Actions { var fetch: AsyncAction<URL, Data> { .init() } }
    /// let call: BoundAction<ActionKind.Async, URL, Data> = pipe.fetch
    /// ```
    public enum Async: Sendable {}
}
