/// How a registration bound to an owner holds it, the same in every part.
///
/// ```swift
/// pipe.on(\.someFunc).handle(owner: robot, retention: .strong) { robot, process in
///     robot.work(process.arguments)
/// }
/// bus.subscribe(pings, owner: screen) { screen, _ in screen.refresh() }   // .weak
/// ```
public enum Retention: Sendable, Equatable {
    /// Held weakly (the default): once the owner is gone the registration does nothing
    /// (a core handler is skipped as `targetReleased`; a subscription or observation ends).
    case weak
    /// Kept alive until the registration is cancelled, or its pipe, bus or property goes.
    case strong
}
