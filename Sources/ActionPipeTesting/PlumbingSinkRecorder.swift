import ActionPipe
import ActionPipePlumbing

/// A sink beside the plumber's own (which gets every packet first) that keeps every packet,
/// in order, until released or ``cancel()``.
public final class PlumbingSinkRecorder<Payload: Sendable>: _RecordingRegistration {
    /// The sink's token.
    public let token: RegistrationToken

    /// The packets, as a plain ``Recorder``.
    public let recorder: Recorder<PlumbingPacket<Payload>>

    /// Adds a recording sink to `plumber`, beside its sink.
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        (recorder, token) = Recorder._fed { recorder in
            plumber._addTap { outcome in
                if let packet = outcome.delivered { recorder.record(packet) }
            }
        }
    }

    deinit { token.cancel() }

    /// The packets received so far, oldest first.
    public var packets: [PlumbingPacket<Payload>] { recorder.values }

    /// The payloads of the packets received so far, oldest first.
    ///
    /// - Complexity: O(n) for n packets.
    public var payloads: [Payload] { recorder.values.map(\.payload) }
}
