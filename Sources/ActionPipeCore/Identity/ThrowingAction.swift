/// A typed action whose handlers may throw: `ThrowingAction<Int, String, Double, ParseError>`
/// takes an `Int` and a `String`, produces a `Double`, and fails with a `ParseError`.
///
/// The last generic argument is the error type (`any Error` for untyped throws), the one
/// before it the result. A typed-throwing closure must say so,
/// `{ (process) throws(ParseError) in ... }`. A throw ends the call: the caller receives
/// the error unchanged, and `report` says which pipe threw.
///
/// ```swift
/// extension Actions {
///     var parse: ThrowingAction<String, Int, ParseError> { .init() }   // (String) throws(ParseError) -> Int
/// }
/// let number = try pipe.parse("42")   // Int?, throws(ParseError)
/// ```
public typealias ThrowingAction<each Argument, Result, Failure: Error> =
    ActionDescriptor<ActionKind.Throwing<Failure>, repeat each Argument, Result>
