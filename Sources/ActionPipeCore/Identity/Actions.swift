/// The namespace in which actions are declared, the way Objective-C declares selectors.
///
/// Declare an action once, as a computed property in an extension of `Actions`. Its type
/// states the argument types and the result type; every pipe can then be called with it
/// like a method:
///
/// ```swift
/// extension Actions {
///     /// (number, object) -> Double
///     var someFunc: Action<Int, String?, Double> { .init() }
/// }
///
/// let pipe = ActionPipe()
/// pipe.on(\.someFunc) { process in 100 }
/// let result = pipe.someFunc(999, "hello")   // Optional(100.0)
/// ```
///
/// Registering and calling name the action by the same key path, `\.someFunc`, so a wrong
/// argument or result type does not compile.
public struct Actions: Sendable {
    /// Creates the namespace value; only the library applies key paths to it.
    ///
    /// ```swift
    /// let action = Actions()[keyPath: \.someFunc]
    /// ```
    @inlinable
    public init() {}
}
