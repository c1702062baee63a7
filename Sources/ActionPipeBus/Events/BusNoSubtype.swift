/// The subtype of an event type that has none: its only value is ``none``.
///
/// ```swift
/// struct Ping: BusEvent {}          // Subtype defaults to BusNoSubtype
/// let topic = BusTopic(Ping.self)   // the one topic of Ping
/// ```
public enum BusNoSubtype: Hashable, Sendable, CustomStringConvertible {
    /// The single subtype.
    ///
    /// ```swift
    /// Ping().subtype == .none
    /// ```
    case none

    /// `"-"`, for topics and traces.
    ///
    /// ```swift
    /// BusNoSubtype.none.description == "-"
    /// ```
    public var description: String { "-" }
}
