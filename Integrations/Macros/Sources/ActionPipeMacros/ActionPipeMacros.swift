// The macros' declarations, and the library re-exported: `import ActionPipeMacros` is all an
// app writes. The expansions live in the ActionPipeMacrosPlugin target, which the compiler
// runs and no app links.
@_exported import ActionPipe

/// Makes a final class a state object whose stored `var`s are observed properties, with a
/// `Sendable` conformance the compiler checks (no `@unchecked`).
///
/// Each stored `var` becomes a computed property over a generated `let` storage of type
/// ``ObservedProperty`` (labelled with the property's name): reading and writing it read and
/// write the value, a compound write (`profile.age += 1`) is one atomic step, and `$name` is
/// the property itself, to observe it. The macro also adds the ``ObservableState``
/// conformance, and `Sendable`, when the class does not declare them.
///
/// ```swift
/// @ObservableState
/// final class Profile {
///     var name = ""
///     var age = 0
/// }
/// let profile = Profile()
/// profile.$age.observe { print("age", $0) }
/// profile.age += 1   // prints "age 1"
/// ```
///
/// Left as written: `let`s, computed and `static` properties, and a `var` marked
/// ``StateIgnored()``. A `var` needs a type annotation or an initial value whose type its
/// spelling says (`0`, `""`, `Date()`, `x as T`); `lazy`, `weak`, `unowned`, property-wrapped
/// and observed (`didSet`) `var`s are errors, as are a struct, an enum and a non-final class.
@attached(memberAttribute)
@attached(extension, conformances: ObservableState, Sendable)
public macro ObservableState() =
    #externalMacro(module: "ActionPipeMacrosPlugin", type: "ObservableStateMacro")

/// Turns a stored `var` into an observed property: ``ObservableState()`` applies it to each
/// `var` it observes, so a class never writes it.
///
/// It generates the storage (`private let _name: ObservedProperty<T>`), the accessors (an
/// init accessor that creates the storage from the initial value; get, set and `_modify`
/// forwarding to its ``ObservedProperty/value``) and the projection `$name`.
@attached(accessor, names: named(init), named(get), named(set), named(_modify))
@attached(peer, names: prefixed(_), prefixed(`$`))
public macro StateTracked() =
    #externalMacro(module: "ActionPipeMacrosPlugin", type: "StateTrackedMacro")

/// Leaves a `var` of an ``ObservableState()`` class as written: not observed, no projection.
///
/// The class's `Sendable` check still applies to it, so it must itself be safe to share (a
/// plain stored `var` is not; a `nonisolated(unsafe) var` is the caller's promise).
///
/// ```swift
/// @ObservableState
/// final class Session {
///     var user = ""
///     @StateIgnored nonisolated(unsafe) var cache: [String: Int] = [:]
/// }
/// ```
@attached(peer)
public macro StateIgnored() =
    #externalMacro(module: "ActionPipeMacrosPlugin", type: "StateIgnoredMacro")
