/// Where a handler given with `on: .mainActor` runs: on the main actor, as a `@MainActor`
/// closure the compiler checks, so it touches `@MainActor` state (a view model, a view)
/// with no `MainActor.assumeIsolated`.
///
/// Deliveries to the main actor keep the order of the writes that caused them, across
/// properties, state objects and buses: one queue serves them all. A write made on the main
/// actor, with nothing queued before it, is delivered at once, before the write returns; a
/// write from any other thread or task is delivered later, on the main actor. A delivery
/// whose registration was cancelled before it ran is dropped.
///
/// ```swift
/// @MainActor final class ProfileViewModel {
///     var title = ""
///     var token: RegistrationToken?
///
///     func bind(to store: ProfileStore) {
///         token = store.$name.observe(on: .mainActor) { name in
///             self.title = name   // main-actor state, checked by the compiler
///         }
///     }
/// }
/// ```
public enum MainActorDelivery: Sendable {
    /// The main actor.
    case mainActor
}
