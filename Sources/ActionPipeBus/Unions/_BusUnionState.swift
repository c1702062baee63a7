import ActionPipeConcurrency

/// The events a union subscription has received since it last fired.
final class _BusUnionState: Sendable {
    let keys: [BusEventKey]
    /// Per key index; the union fires when every index has one.
    private let received: LockedValue<[Int: any BusEvent]>

    init(keys: [BusEventKey]) {
        self.keys = keys
        received = LockedValue([:])
    }

    /// Records `event` under every key in `indices` (the ones it matches, first first);
    /// returns the completed union and starts over, or `nil` while a key is missing. A
    /// repeat replaces its key's event.
    func receive(_ event: any BusEvent, at indices: [Int]) -> BusUnion? {
        let index = indices[0]
        // Replaced events leave the lock in `replaced`: a payload's last reference must
        // not go under it.
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
