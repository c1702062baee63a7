/// A ``BusTopic`` with its event type erased, so topics of several types can be listed.
public struct BusEventKey: Hashable, Sendable, CustomStringConvertible {
    let type: ObjectIdentifier
    let subtype: _BusErasedSubtype?
    /// Its name is built only for `description`.
    let eventType: any BusEvent.Type

    init<Event: BusEvent>(_ topic: BusTopic<Event>) {
        type = ObjectIdentifier(Event.self)
        subtype = topic.subtype.map { _BusErasedSubtype(value: AnyHashable($0)) }
        eventType = Event.self
    }

    /// The same type, and the same subtype unless this key accepts any.
    func _matches(_ event: any BusEvent) -> Bool {
        guard ObjectIdentifier(Swift.type(of: event)) == type else { return false }
        guard let subtype else { return true }
        return subtype.value == _busSubtypeValue(of: event)
    }

    /// Under the bus's lock: adds an entry forwarding to a union; returns what to release.
    func addForwarder(
        to state: inout _BusState, id: UInt64, owner: _BusOwner?, name: String,
        forward: @escaping @Sendable (AnyObject?, any BusEvent) throws -> Void
    ) -> [AnyObject] {
        func add<Event: BusEvent>(_: Event.Type) -> [AnyObject] {
            let subtype = subtype.map { $0.value.base as! Event.Subtype }
            let entry = _BusGeneralEntry<Event>(
                id: id, subtype: subtype, owner: owner, executor: nil, name: name
            ) { object, event in
                try forward(object, event)
                return nil
            }
            return state.add(entry, type: type)
        }
        return add(eventType)
    }

    /// Whether this key matches every subtype of its event type.
    public var isAnySubtype: Bool { subtype == nil }

    /// `Login.login`, `Ping.-` (no subtype) or `Login.*` (any subtype).
    public var description: String {
        "\(String(describing: eventType)).\(subtype.map { "\($0.value.base)" } ?? "*")"
    }

    /// Keys are equal when event type and subtype are equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.subtype == rhs.subtype
    }

    /// Hashes the event type and subtype.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(subtype)
    }
}

/// `@unchecked Sendable`: it only wraps a `BusEvent.Subtype`, which is `Sendable`.
struct _BusErasedSubtype: Hashable, @unchecked Sendable {
    let value: AnyHashable
}

private func _busSubtypeValue<Event: BusEvent>(of event: Event) -> AnyHashable {
    AnyHashable(event.subtype)
}
