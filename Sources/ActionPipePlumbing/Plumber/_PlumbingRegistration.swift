/// What a plumber's `RegistrationToken` names, kept in its `detail`.
enum _PlumbingRegistration: Int {
    case stage
    case sink
    case stopObserver
    /// A sink added beside the sink (a test's recorder), not replacing it.
    case sinkTap
    /// A stop observer added beside the stop observer (a test's recorder).
    case stopTap
}
