/// How a registration bound to an owner holds it: a handler's owner in the core, a
/// subscriber on the bus, an observer's owner in observable state. The same two choices in
/// every part.
///
/// ```swift
/// pipe.on(\.someFunc).handle(owner: robot, retention: .strong) { robot, process in
///     robot.work(process.arguments)
/// }
/// bus.subscribe(pings, owner: screen) { screen, _ in screen.refresh() }   // .weak
/// ```
public enum Retention: Sendable, Equatable {
    /// Held weakly (the default, as the originals hold delegates and observers): once the
    /// owner is gone the registration does nothing more (a core handler is skipped and
    /// traced as `targetReleased`; a subscription or an observation ends).
    case weak
    /// Kept alive for as long as the registration lasts: until it is cancelled, or its
    /// pipe, bus or property goes.
    case strong
}
