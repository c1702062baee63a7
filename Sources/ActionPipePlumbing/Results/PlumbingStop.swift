/// A packet that did not reach the sink: where it stopped and why.
///
/// The original drops a stopped packet silently; here the caller gets this value back from
/// `send` / `process`, and a plumber's `onStop` observer gets it for every stopped packet,
/// including the ones emitted fire-and-forget.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>(name: "numbers")
/// plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("not positive") }
/// plumber.addStage("small") { packet in packet.payload < 10 ? .pass : .stop("too big") }
/// let stop = try #require(plumber.send(42, from: 7).stop)
/// #expect(stop.stage == "small")
/// #expect(stop.stagesPassed == 1)
/// #expect(stop.packet.port == 7)
/// #expect(stop.description == "numbers: port 7's packet stopped by stage 'small' (2 of 2): refused: too big")
/// ```
public struct PlumbingStop<Payload: Sendable>: Sendable, CustomStringConvertible {
    /// The packet as the stages had left it when it stopped.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("double") { packet in packet.payload *= 2; return .pass }
    /// plumber.addStage("refuse") { _ in .stop("no") }
    /// #expect(plumber.send(4, from: 1).stop?.packet.payload == 8)
    /// ```
    public let packet: PlumbingPacket<Payload>

    /// The stage that stopped the packet, or, when it was cancelled, the stage that was
    /// about to run. `nil` when no stage was involved: cancelled after the last stage (the
    /// sink did not run), or the port belonged to no plumber.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("gate") { _ in .stop("closed") }
    /// #expect(plumber.send(1, from: 1).stop?.stage == "gate")
    /// ```
    public let stage: String?

    /// How many stages passed the packet before it stopped; also the index of `stage`.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .pass }
    /// plumber.addStage("b") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stop?.stagesPassed == 1)
    /// ```
    public let stagesPassed: Int

    /// How many stages the plumber had for this packet.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stop?.stageCount == 1)
    /// ```
    public let stageCount: Int

    /// Why the packet stopped.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("a") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stop?.reason.refusal == "no")
    /// ```
    public let reason: PlumbingStopReason

    /// The name of the plumber the packet went through; empty when it never entered one
    /// (``PlumbingStopReason/portNotConnected``).
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>(name: "share")
    /// plumber.addStage("a") { _ in .stop("no") }
    /// #expect(plumber.send(1, from: 1).stop?.plumber == "share")
    /// ```
    public let plumber: String

    /// A stop record; the plumber makes these, tests and adapters may too.
    ///
    /// ```swift
    /// let stop = PlumbingStop(
    ///     packet: PlumbingPacket(1, port: 2), stage: "gate", stagesPassed: 0, stageCount: 1,
    ///     reason: .refused("closed"), plumber: "p")
    /// #expect(stop.description == "p: port 2's packet stopped by stage 'gate' (1 of 1): refused: closed")
    /// ```
    public init(
        packet: PlumbingPacket<Payload>, stage: String?, stagesPassed: Int, stageCount: Int,
        reason: PlumbingStopReason, plumber: String
    ) {
        self.packet = packet
        self.stage = stage
        self.stagesPassed = stagesPassed
        self.stageCount = stageCount
        self.reason = reason
        self.plumber = plumber
    }

    /// Which plumber, which port, which stage and why, in one line.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>(name: "p")
    /// plumber.addStage("gate") { _ in .stop("closed") }
    /// #expect(plumber.send(1, from: 2).stop?.description
    ///     == "p: port 2's packet stopped by stage 'gate' (1 of 1): refused: closed")
    /// ```
    public var description: String {
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
