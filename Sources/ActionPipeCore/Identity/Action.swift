/// A synchronous action that cannot throw: `Action<Int, String?, Double>` takes an `Int`
/// and a `String?` and produces a `Double`.
///
/// The last generic argument is always the result: `Action<Void>` takes nothing and returns
/// nothing, `Action<Int>` takes nothing and returns an `Int`.
///
/// ```swift
/// extension Actions {
///     var someFunc: Action<Int, String?, Double> { .init() }   // (Int, String?) -> Double
///     var refresh: Action<Void> { .init() }                    // () -> Void
/// }
/// ```
public typealias Action<each Argument, Result> =
    ActionDescriptor<ActionKind.Sync, repeat each Argument, Result>
