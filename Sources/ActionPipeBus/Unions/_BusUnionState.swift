import ActionPipeConcurrency

/// The events a union subscription has received since it last fired.
final class _BusUnionState: Sendable {
    let keys: [BusEventKey]
    /// The latest event per key index; the union fires when every index has one.
    private let received: LockedValue<[Int: any BusEvent]>

    init(keys: [BusEventKey]) {
        self.keys = keys
        received = LockedValue([:])
    }

    /// Records `event` under every key in `indices` (the union's keys it matches, first
    /// one first); returns the completed union (and starts over), or
    /// `nil` while some key has not arrived yet. A key arriving again before the union is
    /// complete replaces its event: it does not count twice.
    func receive(_ event: any BusEvent, at indices: [Int]) -> BusUnion? {
        let index = indices[0]
        // An event replaced, or the completed set, leaves the lock in `replaced`: the last
        // reference to an event (and to whatever its payload holds) must not go under it.
        var replaced: [any BusEvent] = []
        let complete: [Int: any BusEvent]? = received.withLock { received in
            for index in indices {
                if let old = received.updateValue(event, forKey: index) { replaced.append(old) }
            }
            guard received.count == keys.count else { return nil }
            var complete: [Int: any BusEvent] = [:]
            swap(&complete, &received)
            return complete
        }
        replaced = []
        guard let complete else { return nil }
        let events = keys.indices.map { complete[$0]! }
        return BusUnion(last: event, lastKey: keys[index], events: events)
    }
}
