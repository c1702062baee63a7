/// A plumber's configuration that was refused.
///
/// ```swift
/// let port = PlumbingPort<Int>(100)
/// let first = PipelinePlumber<Int>(name: "first")
/// try first.addPort(port)
/// #expect(throws: PlumbingError.portInUse(port: 100, plumber: "first")) {
///     try PipelinePlumber<Int>(name: "second").addPort(port)
/// }
/// ```
public enum PlumbingError: Error, Equatable, CustomStringConvertible {
    /// The port already feeds another plumber. A port feeds one plumber at a time, so its
    /// packets keep one order; remove it from the first plumber (or make a second port).
    ///
    /// ```swift
    /// let error = PlumbingError.portInUse(port: 1, plumber: "a")
    /// #expect(error.description.contains("removePort"))
    /// ```
    case portInUse(port: Int, plumber: String)

    /// What went wrong and what to do.
    ///
    /// ```swift
    /// #expect(PlumbingError.portInUse(port: 1, plumber: "a").description.hasPrefix("port 1"))
    /// ```
    public var description: String {
        switch self {
        case .portInUse(let port, let plumber):
            "port \(port) already feeds plumber '\(plumber)'; a port feeds one plumber at a "
                + "time: call `removePort(_:)` on '\(plumber)' first, or make another port"
        }
    }
}
