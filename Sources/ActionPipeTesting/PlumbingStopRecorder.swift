import ActionPipe
import ActionPipePlumbing

/// A stop observer beside the plumber's `onStop` (told every stop first) that keeps every
/// stop, in order, until released or ``cancel()``.
public final class PlumbingStopRecorder<Payload: Sendable>: _RecordingRegistration<
    PlumbingOutcome<Payload>
>, @unchecked Sendable
{
    /// Adds a recording stop observer to `plumber`, beside its `onStop`.
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        super.init { recorder in
            plumber._addTap { outcome in
                if !outcome.wasDelivered { recorder.record(outcome) }
            }
        }
    }

    /// The stops received so far, oldest first.
    public var stops: [PlumbingOutcome<Payload>] { recorder.values }

    /// Each stop as `stage: reason` (`sink: reason` after every stage), oldest first.
    ///
    /// - Complexity: O(n) for n stops.
    public var summaries: [String] {
        recorder.values.map { "\($0.stage ?? "sink"): \($0.reason?.description ?? "")" }
    }
}
