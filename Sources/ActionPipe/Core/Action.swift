/// A typed action: the Swift form of a selector, with its argument types and result type.
///
/// `Action<Int, String?, Double>` takes an `Int` and a `String?` and produces a `Double`.
/// The last generic argument is always the result; all the ones before it are arguments,
/// so an action with no arguments that returns nothing is `Action<Void>`, and one with no
/// arguments that returns an `Int` is `Action<Int>`.
///
/// ```swift
/// extension Actions {
///     var someFunc: Action<Int, String?, Double> { .init() }   // (Int, String?) -> Double
///     var refresh: Action<Void> { .init() }                    // () -> Void
/// }
/// ```
///
/// An action carries no data; its identity is the key path that names it in ``Actions``.
public struct Action<each Argument, Result>: Sendable {
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
