/// How a pipe holds the target object of a handler.
///
/// ```swift
/// pipe.on(\.someFunc).handle(target: robot, retention: .strong) { robot, process in
///     robot.work(process.arguments)
/// }
/// ```
public enum TargetRetention: Sendable, Equatable {
    /// The pipe holds the target weakly (the default, as the original holds delegates):
    /// once the target is gone, the handler is skipped and traced as `targetReleased`.
    case weak
    /// The pipe keeps the target alive for as long as the handler is registered.
    case strong
}
