/// An object that offers a set of actions, registered on a pipe in one call: the Swift
/// form of registering every method of a protocol that a delegate implements.
///
/// ```swift
/// final class Robot: ActionResponder {
///     func someFunc(_ number: Int, _ object: String?) -> Double? { Double(number) }
///     func reset() {}
///
///     static func registerActions(in registrar: inout ActionRegistrar<Robot>) {
///         registrar.add(\.someFunc, method: Robot.someFunc)
///         registrar.add(\.reset) { robot, _ in robot.reset() }
///     }
/// }
///
/// let robot = Robot()
/// pipe.register(robot)        // weakly, like the original's delegate
/// pipe.someFunc(999, "in instance object")
/// ```
public protocol ActionResponder: AnyObject, Sendable {
    /// Adds every action this type answers to `registrar`.
    ///
    /// ```swift
    /// static func registerActions(in registrar: inout ActionRegistrar<Robot>) {
    ///     registrar.add(\.someFunc, method: Robot.someFunc)
    /// }
    /// ```
    static func registerActions(in registrar: inout ActionRegistrar<Self>)
}

extension ActionPipe {
    /// Registers every action that `responder` offers, with `responder` as the target
    /// (held weakly by default). Each action replaces this pipe's handler for it.
    ///
    /// ```swift
    /// let tokens = pipe.register(robot)
    /// ```
    ///
    /// - Returns: One token per registered action, in registration order.
    @discardableResult
    public func register<Responder: ActionResponder>(
        _ responder: Responder, retention: Retention = .weak
    ) -> [RegistrationToken] {
        var registrar = ActionRegistrar(pipe: self, target: responder, retention: retention)
        Responder.registerActions(in: &registrar)
        return registrar.tokens
    }
}
