/// The subtype of an event type that has none: its only value is ``none``, so the type has
/// one topic, `BusTopic(Ping.self)`.
public enum BusNoSubtype: Hashable, Sendable, CustomStringConvertible {
    /// The single subtype.
    case none

    /// `"-"`, for topics and traces.
    public var description: String { "-" }
}
