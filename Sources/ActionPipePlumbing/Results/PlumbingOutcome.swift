/// What became of one packet: delivered to the sink, or stopped, where and why. `send` and
/// `process` return one; `onStop` is told each stopped one, emitted packets' too.
public struct PlumbingOutcome<Payload: Sendable>: Sendable, CustomStringConvertible {
    /// The packet as the stages left it: what the sink received, or what the stopping
    /// stage saw.
    public let packet: PlumbingPacket<Payload>

    /// The stage that stopped the packet, or, when cancelled, the one about to run; `nil`
    /// when delivered, cancelled after the last stage, or the port fed no plumber.
    public let stage: String?

    /// How many stages passed the packet: all when it was delivered; else the index of `stage`.
    public let stagesPassed: Int

    /// How many stages the plumber had for this packet.
    public let stageCount: Int

    /// Why the packet stopped, or `nil` when it was delivered.
    public let reason: PlumbingStopReason?

    /// The plumber's name; empty when the packet never entered one
    /// (``PlumbingStopReason/portNotConnected``).
    public let plumber: String

    /// An outcome; the plumber makes these, tests and adapters may too. `reason: nil` is a
    /// delivered packet.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(
        packet: PlumbingPacket<Payload>, stage: String?, stagesPassed: Int, stageCount: Int,
        reason: PlumbingStopReason?, plumber: String
    ) {
        self.packet = packet
        self.stage = stage
        self.stagesPassed = stagesPassed
        self.stageCount = stageCount
        self.reason = reason
        self.plumber = plumber
    }

    /// Whether every stage passed the packet.
    @inlinable
    public var wasDelivered: Bool { reason == nil }

    /// The packet the sink received, or `nil` when the packet stopped.
    @inlinable
    public var delivered: PlumbingPacket<Payload>? { reason == nil ? packet : nil }

    /// This outcome when the packet stopped, or `nil`: `let stop = try #require(outcome.stop)`.
    @inlinable
    public var stop: Self? { reason == nil ? nil : self }

    /// `delivered PACKET`, or which plumber, port and stage stopped it and why, in one line:
    /// `p: port 2's packet stopped by stage 'gate' (1 of 1): refused: closed`.
    public var description: String {
        guard let reason else { return "delivered \(packet)" }
        let place =
            switch (stage, reason) {
            case (_, .portNotConnected): "never entered a plumber"
            case (let stage?, .cancelled):
                "stopped before stage '\(stage)' (\(stagesPassed + 1) of \(stageCount))"
            case (let stage?, _):
                "stopped by stage '\(stage)' (\(stagesPassed + 1) of \(stageCount))"
            case (nil, _): "stopped after all \(stageCount) stages, before the sink"
            }
        let prefix = plumber.isEmpty ? "" : "\(plumber): "
        return "\(prefix)port \(packet.port)'s packet \(place): \(reason)"
    }
}
