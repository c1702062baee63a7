/// A typed action whose handlers may throw: `ThrowingAction<Int, String, Double, ParseError>`
/// takes an `Int` and a `String`, produces a `Double`, and fails with a `ParseError`.
///
/// The last generic argument is the error type, the one before it the result; all the
/// ones before those are arguments. Use `any Error` for untyped throws. A closure that
/// throws a typed error must say so, `{ (process) throws(ParseError) in ... }`: Swift
/// infers `any Error` for closures that do not. A handler that
/// throws ends the call: no later handler runs, the caller receives the error unchanged
/// (typed throws), and `report` says which pipe threw.
///
/// ```swift
/// enum ParseError: Error { case notANumber(String) }
/// extension Actions {
///     var parse: ThrowingAction<String, Int, ParseError> { .init() }   // (String) throws(ParseError) -> Int
/// }
/// pipe.on(\.parse).handle { (process) throws(ParseError) in
///     guard let number = Int(process.arguments) else { throw .notANumber(process.arguments) }
///     return number
/// }
/// let number = try pipe.parse("42")   // Int?, throws(ParseError)
/// ```
public typealias ThrowingAction<each Argument, Result, Failure: Error> =
    ActionDescriptor<ActionKind.Throwing<Failure>, repeat each Argument, Result>
