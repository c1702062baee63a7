import ActionPipe

/// An observation that keeps every value it is told, in order (recorded on the assigning
/// thread), until released or ``cancel()``.
public final class ObservationRecorder<Value: Sendable>: _RecordingRegistration {
    /// The observation's token.
    public let token: RegistrationToken

    /// The values, as a plain ``Recorder``.
    public let recorder: Recorder<Value>

    /// Observes `property` with `options`.
    ///
    /// - Complexity: Amortised O(1), as `ObservedProperty.observe`.
    public init(_ property: ObservedProperty<Value>, _ options: ObservationOptions = []) {
        (recorder, token) = Recorder._fed { property.observe(options, $0.record) }
    }

    /// Observes the value at the end of `path`, whichever objects it goes through.
    ///
    /// - Complexity: As `ObservedPath.observe`, registered on each object of the path.
    public init(_ path: ObservedPath<Value>, _ options: ObservationOptions = []) {
        (recorder, token) = Recorder._fed { path.observe(options, $0.record) }
    }

    deinit { token.cancel() }

    /// The values received so far, oldest first.
    public var values: [Value] { recorder.values }
}
