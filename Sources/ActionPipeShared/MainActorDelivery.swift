/// Where a handler given with `on: .mainActor` runs: a `@MainActor` closure, through one
/// queue for every delivery, in the order of their causes (at once when a write on the main
/// actor finds nothing queued). A cancelled registration's deliveries are dropped.
public enum MainActorDelivery: Sendable {
    /// The main actor.
    case mainActor
}
