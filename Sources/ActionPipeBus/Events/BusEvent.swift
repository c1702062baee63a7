/// An event that travels on an ``EventBus``: a business area declared once as a type, with
/// a typed payload (the type's stored properties) and a subtype naming one event of that
/// area.
///
/// Subscribers choose events by ``BusTopic``: the event's Swift type plus, exactly, its
/// subtype (or explicitly any subtype). An event type whose subtype is ``BusNoSubtype``
/// (the default) has one topic only.
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
/// `Feedback` is what each subscriber answers when it has handled the event (default
/// `Void`); publishers that ask for feedback receive one ``BusFeedback`` per subscriber.
public protocol BusEvent: Sendable {
    /// The kind of events within this business area; ``BusNoSubtype`` when there is one.
    ///
    /// ```swift
    /// enum Kind: Hashable, Sendable { case login, logout }
    /// ```
    ///
    /// Its `==` and `hash(into:)` run on every publish (to find the subtype's subscribers),
    /// so keep them cheap; they never run while the bus holds its lock, so they may use the
    /// bus.
    associatedtype Subtype: Hashable & Sendable = BusNoSubtype

    /// What a subscriber answers after handling the event; `Void` when it answers nothing.
    ///
    /// ```swift
    /// typealias Feedback = String   // each subscriber returns a String
    /// ```
    associatedtype Feedback: Sendable = Void

    /// Which event of the business area this is; read once per publish.
    ///
    /// ```swift
    /// let subtype: Kind
    /// ```
    var subtype: Subtype { get }
}

extension BusEvent where Subtype == BusNoSubtype {
    /// The only subtype of an event type without subtypes.
    ///
    /// ```swift
    /// CacheCleared().subtype == .none
    /// ```
    public var subtype: BusNoSubtype { .none }
}
