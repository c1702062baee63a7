/// What became of one packet: delivered to the sink, or stopped (where and why).
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// plumber.addStage("add one") { packet in packet.payload += 1; return .pass }
/// let outcome = plumber.send(41, from: 100)
/// #expect(outcome.delivered == PlumbingPacket(42, port: 100))
/// #expect(outcome.description == "delivered port 100: 42")
/// ```
public enum PlumbingOutcome<Payload: Sendable>: Sendable, CustomStringConvertible {
    /// Every stage passed the packet; the sink (if any) received it as it is here.
    ///
    /// ```swift
    /// let outcome = PipelinePlumber<Int>().send(1, from: 2)
    /// if case .delivered(let packet) = outcome { #expect(packet.payload == 1) }
    /// ```
    case delivered(PlumbingPacket<Payload>)
    /// The packet did not reach the sink.
    ///
    /// ```swift
    /// let plumber = PipelinePlumber<Int>()
    /// plumber.addStage("no") { _ in .stop("never") }
    /// if case .stopped(let stop) = plumber.send(1, from: 2) { #expect(stop.stage == "no") }
    /// ```
    case stopped(PlumbingStop<Payload>)

    /// The packet the sink received, or `nil` when the packet stopped.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).delivered?.payload == 1)
    /// ```
    @inlinable
    public var delivered: PlumbingPacket<Payload>? {
        if case .delivered(let packet) = self { return packet }
        return nil
    }

    /// Where and why the packet stopped, or `nil` when it was delivered.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).stop == nil)
    /// ```
    @inlinable
    public var stop: PlumbingStop<Payload>? {
        if case .stopped(let stop) = self { return stop }
        return nil
    }

    /// Whether every stage passed the packet.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).wasDelivered)
    /// ```
    @inlinable
    public var wasDelivered: Bool {
        if case .delivered = self { return true }
        return false
    }

    /// `delivered PACKET`, or the stop's description.
    ///
    /// ```swift
    /// #expect(PipelinePlumber<Int>().send(1, from: 2).description == "delivered port 2: 1")
    /// ```
    public var description: String {
        switch self {
        case .delivered(let packet): "delivered \(packet)"
        case .stopped(let stop): stop.description
        }
    }
}
