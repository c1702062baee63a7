/// A typed action: the Swift form of a selector, with its kind, argument types and result
/// type. You declare actions through its three aliases, ``Action``, ``ThrowingAction`` and
/// ``AsyncAction``, as computed properties of ``Actions``.
///
/// ```swift
/// extension Actions {
///     var someFunc: Action<Int, String?, Double> { .init() }           // (Int, String?) -> Double
///     var parse: ThrowingAction<String, Int, ParseError> { .init() }   // throws(ParseError)
///     var fetchTitle: AsyncAction<Int, String> { .init() }             // async throws
/// }
/// ```
///
/// An action carries no data but its name; its identity is the key path that names it in
/// ``Actions``.
public struct ActionDescriptor<Kind, each Argument, Result>: Sendable {
    /// The action's name in traces: by default, the name of the declaring property.
    ///
    /// ```swift
    /// Actions().someFunc.name   // "someFunc"
    /// ```
    public let name: String

    /// Creates the action's descriptor; write it as `.init()` in the declaring property,
    /// whose name becomes the action's name in traces.
    ///
    /// ```swift
    /// extension Actions { var ping: Action<Int, Int> { .init() } }
    /// ```
    ///
    /// - Parameter name: The name shown in traces; defaults to the declaring property's.
    public init(name: String = #function) { self.name = name }
}
