/// What a ``BusEventKey`` does with its erased event type: adds an entry forwarding the
/// key's events to a union subscription.
protocol _BusKeyOps: Sendable {
    func addForwarder(
        to state: inout _BusState, id: UInt64, owner: _BusOwner?, name: String,
        forward: @escaping @Sendable (AnyObject?, any BusEvent) throws -> Void
    ) -> [AnyObject]
}

struct _BusTypedKeyOps<Event: BusEvent>: _BusKeyOps {
    let subtype: Event.Subtype?

    func addForwarder(
        to state: inout _BusState, id: UInt64, owner: _BusOwner?, name: String,
        forward: @escaping @Sendable (AnyObject?, any BusEvent) throws -> Void
    ) -> [AnyObject] {
        let entry = _BusGeneralEntry<Event>(
            id: id, subtype: subtype, owner: owner, executor: nil, name: name
        ) { object, event in
            try forward(object, event)
            return nil
        }
        return state.add(entry, type: ObjectIdentifier(Event.self))
    }
}
