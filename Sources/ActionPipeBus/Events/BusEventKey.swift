/// A ``BusTopic`` with its event type erased, so topics of different event types can be
/// listed together: the events of a union subscription, or what to unsubscribe from.
///
/// Two keys are equal when they name the same event type and the same subtype (or both
/// "any subtype").
///
/// ```swift
/// let keys = [BusTopic(Login.self, .login).key, BusTopic(Ping.self).key]
/// bus.subscribe(allOf: keys, owner: screen) { screen, union in print(union.events) }
/// ```
public struct BusEventKey: Hashable, Sendable, CustomStringConvertible {
    let type: ObjectIdentifier
    let subtype: _BusErasedSubtype?
    /// The event type, for `description` (its name is built only when asked for: making it
    /// on every subscribe cost more than the rest of the subscribe).
    let eventType: any BusEvent.Type
    let ops: any _BusKeyOps

    init<Event: BusEvent>(_ topic: BusTopic<Event>) {
        type = ObjectIdentifier(Event.self)
        subtype = topic.subtype.map { _BusErasedSubtype(AnyHashable($0)) }
        eventType = Event.self
        ops = _BusTypedKeyOps<Event>(subtype: topic.subtype)
    }

    /// Whether `event` is delivered to subscriptions of this key: the same type, and the
    /// same subtype unless this key accepts any subtype.
    func _matches(_ event: any BusEvent) -> Bool {
        guard ObjectIdentifier(Swift.type(of: event)) == type else { return false }
        guard let subtype else { return true }
        return subtype.value == _busSubtypeValue(of: event)
    }

    /// Whether this key matches every subtype of its event type.
    ///
    /// ```swift
    /// BusTopic(anySubtypeOf: Login.self).key.isAnySubtype   // true
    /// ```
    public var isAnySubtype: Bool { subtype == nil }

    /// `Login.login`, `Ping.-` (no subtype) or `Login.*` (any subtype).
    ///
    /// ```swift
    /// print(BusTopic(Login.self, .login).key)   // Login.login
    /// ```
    public var description: String {
        "\(String(describing: eventType)).\(subtype.map { "\($0.value.base)" } ?? "*")"
    }

    /// Keys are equal when event type and subtype are equal.
    ///
    /// ```swift
    /// BusTopic(Ping.self).key == BusTopic(Ping.self).key   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.subtype == rhs.subtype
    }

    /// Hashes the event type and subtype.
    ///
    /// ```swift
    /// let set: Set<BusEventKey> = [BusTopic(Ping.self).key]
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(subtype)
    }
}

/// A subtype with its type erased.
///
/// `@unchecked Sendable`: `AnyHashable` is not `Sendable`, but the value it wraps always is,
/// because it is built only from a `BusEvent.Subtype`, which is `Hashable & Sendable`.
struct _BusErasedSubtype: Hashable, @unchecked Sendable {
    let value: AnyHashable
    init(_ value: AnyHashable) { self.value = value }
}

/// The subtype of `event`, erased the way a key erases it.
private func _busSubtypeValue<Event: BusEvent>(of event: Event) -> AnyHashable {
    AnyHashable(event.subtype)
}
