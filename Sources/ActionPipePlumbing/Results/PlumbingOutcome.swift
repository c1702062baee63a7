/// What became of one packet: delivered to the sink, or stopped, where and why.
///
/// `send` and `process` return one; a plumber's `onStop` observer is told each stopped one,
/// including the packets emitted fire-and-forget (the original drops them silently).
///
/// ```swift
/// let plumber = PipelinePlumber<Int>(name: "numbers")
/// plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("not positive") }
/// plumber.addStage("small") { packet in packet.payload < 10 ? .pass : .stop("too big") }
/// #expect(plumber.send(4, from: 7).delivered == PlumbingPacket(4, port: 7))
/// let stop = plumber.send(42, from: 7)
/// #expect(stop.stage == "small" && stop.stagesPassed == 1 && stop.reason?.refusal == "too big")
/// #expect(stop.description == "numbers: port 7's packet stopped by stage 'small' (2 of 2): refused: too big")
/// ```
public struct PlumbingOutcome<Payload: Sendable>: Sendable, CustomStringConvertible {
    /// The packet as the stages left it: what the sink received, or what the stopping
    /// stage saw.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("double") { packet in packet.payload *= 2; return .pass }
    /// plumber.addStage("refuse") { _ in .stop("no") }
    /// #expect(plumber.send(4, from: 1).packet.payload == 8)
    /// ```
    public let packet: PlumbingPacket<Payload>

    /// The stage that stopped the packet, or, when it was cancelled, the stage that was
    /// about to run. `nil` when the packet was delivered or no stage was involved:
    /// cancelled after the last stage (the sink did not run), or the port belonged to no
    /// plumber.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("gate") { _ in .stop("closed") }
    /// #expect(plumber.send(1, from: 1).stage == "gate")
    /// ```
    public let stage: String?

    /// How many stages passed the packet: all of them when it was delivered; else the
    /// index of `stage`.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .pass }
    /// plumber.addStage("b") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stagesPassed == 1)
    /// ```
    public let stagesPassed: Int

    /// How many stages the plumber had for this packet.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stageCount == 1)
    /// ```
    public let stageCount: Int

    /// Why the packet stopped, or `nil` when it was delivered.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { packet in packet.payload > 0 ? .pass : .stop("no") }
    /// #expect(plumber.send(0, from: 1).reason?.refusal == "no")
    /// #expect(plumber.send(1, from: 1).reason == nil)
    /// ```
    public let reason: PlumbingStopReason?

    /// The name of the plumber the packet went through; empty when it never entered one
    /// (``PlumbingStopReason/portNotConnected``).
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>(name: "share").send(1, from: 1).plumber == "share")
    /// ```
    public let plumber: String

    /// An outcome; the plumber makes these, tests and adapters may too. `reason: nil` is a
    /// delivered packet.
    ///
    /// ```swift
    /// let stop = PlumbingOutcome(
    ///     packet: PlumbingPacket(1, port: 2), stage: "gate", stagesPassed: 0, stageCount: 1,
    ///     reason: .refused("closed"), plumber: "p")
    /// #expect(stop.description == "p: port 2's packet stopped by stage 'gate' (1 of 1): refused: closed")
    /// ```
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
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).wasDelivered)
    /// ```
    @inlinable
    public var wasDelivered: Bool { reason == nil }

    /// The packet the sink received, or `nil` when the packet stopped.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).delivered?.payload == 1)
    /// ```
    @inlinable
    public var delivered: PlumbingPacket<Payload>? { reason == nil ? packet : nil }

    /// This outcome when the packet stopped, or `nil` when it was delivered: the test's
    /// `let stop = try #require(outcome.stop)`.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// #expect(plumber.send(1, from: 2).stop == nil)
    /// plumber.addStage("no") { _ in .stop("never") }
    /// #expect(plumber.send(1, from: 2).stop?.stage == "no")
    /// ```
    @inlinable
    public var stop: Self? { reason == nil ? nil : self }

    /// `delivered PACKET`, or which plumber, which port, which stage and why, in one line.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>(name: "p")
    /// #expect(plumber.send(1, from: 2).description == "delivered port 2: 1")
    /// plumber.addStage("gate") { _ in .stop("closed") }
    /// #expect(plumber.send(1, from: 2).description
    ///     == "p: port 2's packet stopped by stage 'gate' (1 of 1): refused: closed")
    /// ```
    public var description: String {
        guard let reason else { return "delivered \(packet)" }
        let place: String
        switch (stage, reason) {
        case (_, .portNotConnected):
            place = "never entered a plumber"
        case (let stage?, .cancelled):
            place = "stopped before stage '\(stage)' (\(stagesPassed + 1) of \(stageCount))"
        case (let stage?, _):
            place = "stopped by stage '\(stage)' (\(stagesPassed + 1) of \(stageCount))"
        case (nil, _):
            place = "stopped after all \(stageCount) stages, before the sink"
        }
        let prefix = plumber.isEmpty ? "" : "\(plumber): "
        return "\(prefix)port \(packet.port)'s packet \(place): \(reason)"
    }
}
