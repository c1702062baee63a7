import ActionPipe
import ActionPipePlumbing

/// A sink beside the plumber's own (which gets every packet first) that keeps every packet,
/// in order, until released or ``cancel()``.
public final class PlumbingSinkRecorder<Payload: Sendable>: _RecordingRegistration<
    PlumbingPacket<Payload>
>, @unchecked Sendable
{
    /// Adds a recording sink to `plumber`, beside its sink.
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        super.init { recorder in
            plumber._addTap { outcome in
                if let packet = outcome.delivered { recorder.record(packet) }
            }
        }
    }

    /// The packets received so far, oldest first.
    public var packets: [PlumbingPacket<Payload>] { recorder.values }

    /// The payloads of the packets received so far, oldest first.
    ///
    /// - Complexity: O(n) for n packets.
    public var payloads: [Payload] { recorder.values.map(\.payload) }
}
