/// An event that travels on an ``EventBus``: a business area declared once as a type, with
/// a typed payload (its stored properties) and a subtype naming one event of the area.
/// Subscribers choose events by ``BusTopic``; a type whose subtype is ``BusNoSubtype`` (the
/// default) has one topic.
///
/// ```swift
/// struct Login: BusEvent {
///     enum Kind: Hashable, Sendable { case login, logout }
///     let subtype: Kind
///     let user: String
/// }
/// struct CacheCleared: BusEvent {}  // no subtype, no payload
/// ```
///
/// `Feedback` is what each subscriber answers (default `Void`); publishers that ask receive
/// one ``BusFeedback`` per subscriber.
public protocol BusEvent: Sendable {
    /// The kind of events within this business area; ``BusNoSubtype`` when there is one.
    /// Its `==` and `hash(into:)` run on every publish, never under the bus's lock: keep
    /// them cheap; they may use the bus.
    associatedtype Subtype: Hashable & Sendable = BusNoSubtype

    /// What a subscriber answers after handling the event; `Void` when it answers nothing.
    associatedtype Feedback: Sendable = Void

    /// Which event of the business area this is; read once per publish.
    var subtype: Subtype { get }
}

extension BusEvent where Subtype == BusNoSubtype {
    /// The only subtype of an event type without subtypes.
    public var subtype: BusNoSubtype { .none }
}
