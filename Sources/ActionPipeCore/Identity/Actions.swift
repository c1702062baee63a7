/// The namespace in which actions are declared, as Objective-C declares selectors: a
/// computed property in an extension, whose type states the arguments and result.
///
/// ```swift
/// extension Actions {
///     var someFunc: Action<Int, String?, Double> { .init() }
/// }
/// pipe.on(\.someFunc) { process in 100 }
/// let result = pipe.someFunc(999, "hello")   // Optional(100.0)
/// ```
///
/// Registering and calling name the action by the same key path, so a wrong argument or
/// result type does not compile.
public struct Actions: Sendable {
    /// Creates the namespace value; only the library applies key paths to it.
    @inlinable
    public init() {}
}
