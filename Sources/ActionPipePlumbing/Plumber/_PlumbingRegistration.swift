/// What a plumber's `RegistrationToken` names, kept in its `detail`.
enum _PlumbingRegistration: Int {
    case stage
    case sink
    case stopObserver
    /// An outcome observer beside the sink and the stop observer, replacing neither.
    case tap
}
