/// What a plumber's `RegistrationToken` names, kept in its `detail`.
enum _PlumbingRegistration: Int {
    case stage
    case sink
    case stopObserver
    /// An observer of every outcome beside the sink and the stop observer (a test's
    /// recorder, a connector), replacing neither.
    case tap
}
