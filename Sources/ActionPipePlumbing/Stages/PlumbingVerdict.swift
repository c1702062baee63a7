/// What a stage decides about a packet: pass it to the next stage, or stop it.
///
/// The original passes by calling a block (`PassNextPipeline(packet)`) and stops by not
/// calling it, which nobody downstream can tell from a stage that forgot to answer. Here
/// the verdict is the stage's return value, so every stage answers exactly once, and a stop
/// carries its reason to the caller.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// plumber.addStage("positive") { packet in packet.payload > 0 ? .pass : .stop("not positive") }
/// #expect(plumber.send(3, from: 1).wasDelivered)
/// #expect(plumber.send(-3, from: 1).reason?.refusal == "not positive")
/// ```
public enum PlumbingVerdict: Sendable, Equatable, CustomStringConvertible {
    /// Pass the packet, as the stage left it, to the next stage (or to the sink).
    ///
    /// ```swift
    /// let verdict: PlumbingVerdict = .pass
    /// #expect(verdict.description == "pass")
    /// ```
    case pass
    /// Stop the packet: no later stage and no sink sees it. The reason reaches the caller.
    ///
    /// ```swift
    /// let verdict: PlumbingVerdict = .stop("not logged in")
    /// #expect(verdict.description == "stop: not logged in")
    /// ```
    case stop(String)

    /// `pass`, or `stop: REASON`.
    ///
    /// ```swift
    /// #expect(PlumbingVerdict.stop("no").description == "stop: no")
    /// ```
    public var description: String {
        switch self {
        case .pass: "pass"
        case .stop(let reason): "stop: \(reason)"
        }
    }
}
