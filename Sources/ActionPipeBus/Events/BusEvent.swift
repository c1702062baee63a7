/// An event that travels on an ``EventBus``: its stored properties are the payload, its
/// `subtype` names one event of the type (``BusNoSubtype`` when there is one).
public protocol BusEvent: Sendable {
    /// The kind of event; its `==` and `hash(into:)` run on every publish: keep them cheap.
    associatedtype Subtype: Hashable & Sendable = BusNoSubtype

    /// What a subscriber answers (``BusFeedback``); `Void` when it answers nothing.
    associatedtype Feedback: Sendable = Void

    /// Which event of the type this is; read once per publish.
    var subtype: Subtype { get }
}

extension BusEvent where Subtype == BusNoSubtype {
    /// The only subtype of an event type without subtypes.
    public var subtype: BusNoSubtype { .none }
}

/// The subtype of an event type that has none, so it has one topic: `BusTopic(Ping.self)`.
public enum BusNoSubtype: Hashable, Sendable, CustomStringConvertible {
    /// The single subtype.
    case none

    /// `"-"`, for topics and traces.
    public var description: String { "-" }
}
