import ActionPipe
import ActionPipePlumbing

/// A plumber's stop observer that keeps every stop it is told, in order: `onStop` for
/// tests. It is added beside the app's `onStop`, which is still told every stop first, and
/// removes only itself when released or on ``cancel()``.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// plumber.addStage("gate") { _ in .stop("closed") }
/// let stops = PlumbingStopRecorder(plumber)
/// plumber.send(1, from: 1)
/// #expect(stops.summaries == ["gate: refused: closed"])
/// ```
public final class PlumbingStopRecorder<Payload: Sendable>: _RecordingRegistration {
    /// The observer's token.
    public let token: RegistrationToken

    /// The stops, as a plain ``Recorder``.
    public let recorder: Recorder<PlumbingOutcome<Payload>>

    /// Adds a recording stop observer to `plumber`, beside its `onStop`.
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        let recorder = Recorder<PlumbingOutcome<Payload>>()
        self.recorder = recorder
        // The observer holds the stops, not this object, so releasing it removes it.
        token = plumber._addTap { outcome in
            if !outcome.wasDelivered { recorder.record(outcome) }
        }
    }

    deinit { token.cancel() }

    /// The stops received so far, oldest first.
    ///
    /// - Complexity: O(1).
    public var stops: [PlumbingOutcome<Payload>] { recorder.values }

    /// Each stop as `stage: reason` (`sink: reason` after every stage), oldest first.
    ///
    /// - Complexity: O(n) for n stops.
    public var summaries: [String] {
        recorder.values.map { "\($0.stage ?? "sink"): \($0.reason?.description ?? "")" }
    }
}
