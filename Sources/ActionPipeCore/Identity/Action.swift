/// A synchronous action that cannot throw: `Action<Int, String?, Double>` takes an `Int`
/// and a `String?` and produces a `Double`.
///
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
public typealias Action<each Argument, Result> =
    ActionDescriptor<ActionKind.Sync, repeat each Argument, Result>
