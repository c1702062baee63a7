/// What a stage decides about a packet: pass it to the next stage, or stop it. A return
/// value, so every stage answers exactly once, and a stop carries its reason to the caller.
public enum PlumbingVerdict: Sendable, Equatable, CustomStringConvertible {
    /// Pass the packet, as the stage left it, to the next stage (or to the sink).
    case pass
    /// Stop the packet: no later stage and no sink sees it. The reason reaches the caller.
    case stop(String)

    /// `pass`, or `stop: REASON`.
    public var description: String {
        switch self {
        case .pass: "pass"
        case .stop(let reason): "stop: \(reason)"
        }
    }
}
