/// What a union (``EventBus/subscribe(allOf:owner:retention:name:on:_:)``) or any-of
/// subscription receives: the event that completed it, and the latest event of each key.
///
/// ```swift
/// union.event(Login.self)?.user   // a typed event of the union
/// ```
public struct BusUnion: Sendable, CustomStringConvertible {
    /// The event that fired the subscription (for a union: the last one to arrive).
    public let last: any BusEvent

    /// The key `last` arrived under.
    public let lastKey: BusEventKey

    /// For a union: the latest event of each key, in the order the keys were given. For an
    /// any-of subscription: just `last`.
    public let events: [any BusEvent]

    /// The first event of `type` in ``events``.
    public func event<Event: BusEvent>(_ type: Event.Type) -> Event? {
        events.lazy.compactMap { $0 as? Event }.first
    }

    /// `Login.login + Data.- (last: Data.-)`.
    public var description: String {
        let names = events.map { "\(type(of: $0))" }.joined(separator: " + ")
        return "\(names) (last: \(lastKey))"
    }
}
