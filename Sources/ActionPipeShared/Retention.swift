/// How a registration bound to an owner holds it, the same in every part.
public enum Retention: Sendable, Equatable {
    /// Held weakly (the default): once the owner is gone the registration does nothing.
    case weak
    /// Kept alive until the registration is cancelled, or its pipe, bus or property goes.
    case strong
}
