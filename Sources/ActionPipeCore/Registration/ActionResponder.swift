/// An object that offers a set of actions, registered on a pipe in one call (as a delegate
/// implements a protocol's methods).
///
/// ```swift
/// final class Robot: ActionResponder {
///     func someFunc(_ number: Int, _ object: String?) -> Double? { Double(number) }
///     static func registerActions(in registrar: inout ActionRegistrar<Robot>) {
///         registrar.add(\.someFunc, method: Robot.someFunc)
///     }
/// }
/// pipe.register(robot)        // weakly, like the original's delegate
/// ```
public protocol ActionResponder: AnyObject, Sendable {
    /// Adds every action this type answers to `registrar`.
    static func registerActions(in registrar: inout ActionRegistrar<Self>)
}

extension ActionPipe {
    /// Registers every action `responder` offers, with it as the target (held weakly by
    /// default), replacing this pipe's handlers for them.
    ///
    /// - Returns: One token per registered action, in registration order.
    /// - Complexity: O(a) for the responder's a actions.
    @discardableResult
    public func register<Responder: ActionResponder>(
        _ responder: Responder, retention: Retention = .weak
    ) -> [RegistrationToken] {
        var registrar = ActionRegistrar(pipe: self, target: responder, retention: retention)
        Responder.registerActions(in: &registrar)
        return registrar.tokens
    }
}
