/// Where a handler given with `on: .mainActor` runs: on the main actor, as a `@MainActor`
/// closure the compiler checks.
///
/// One queue serves every delivery to the main actor, so they keep the order of the writes
/// that caused them. A write on the main actor with nothing queued is delivered before it
/// returns; any other later. A delivery whose registration was cancelled is dropped.
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
