/// A plumber's configuration that was refused.
public enum PlumbingError: Error, Equatable, CustomStringConvertible {
    /// The port already feeds another plumber: a port feeds one at a time, so its packets
    /// keep one order. Remove it from the first plumber, or make a second port.
    case portInUse(port: Int, plumber: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .portInUse(let port, let plumber):
            "port \(port) already feeds plumber '\(plumber)'; a port feeds one plumber at a "
                + "time: call `removePort(_:)` on '\(plumber)' first, or make another port"
        }
    }
}
