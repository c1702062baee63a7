import ActionPipe

/// An observation that keeps every value it is told, in order (recorded on the assigning
/// thread), until released or ``cancel()``.
public final class ObservationRecorder<Value: Sendable>: _RecordingRegistration<Value>,
    @unchecked Sendable
{
    /// Observes `property` with `options`.
    ///
    /// - Complexity: Amortised O(1), as `ObservedProperty.observe`.
    public init(_ property: ObservedProperty<Value>, _ options: ObservationOptions = []) {
        super.init { property.observe(options, $0.record) }
    }

    /// Observes the value at the end of `path`, whichever objects it goes through.
    ///
    /// - Complexity: As `ObservedPath.observe`, registered on each object of the path.
    public init(_ path: ObservedPath<Value>, _ options: ObservationOptions = []) {
        super.init { path.observe(options, $0.record) }
    }

    /// The values received so far, oldest first.
    public var values: [Value] { recorder.values }
}
