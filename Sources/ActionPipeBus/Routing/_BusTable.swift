import ActionPipeConcurrency

/// The subscriptions of one event type by id (a union's further entries in `more`), touched
/// only under the bus's lock. Not generic, so subscribe and cancel run no generic code.
class _BusTable {
    @exclusivity(unchecked) final var entries: [UInt64: _BusSubscriptionEntry] = [:]
    @exclusivity(unchecked) final var more: [UInt64: [_BusSubscriptionEntry]] = [:]
    /// The type's routes are the stale marker.
    @exclusivity(unchecked) final var routesAreStale = false
    @exclusivity(unchecked) final var version: UInt64 = 0

    init() {}

    /// - Complexity: Amortised O(1); O(n) once while a publish holds a copy of the entries.
    final func add(_ entry: _BusSubscriptionEntry) {
        version &+= 1
        // One lookup for a new id; a union's further entry puts the first back.
        guard let first = entries.updateValue(entry, forKey: entry.id) else { return }
        entries[entry.id] = first
        more[entry.id, default: []].append(entry)
    }

    /// Removes and cancels `id`'s entries: returns the first; the others go to `released`.
    final func remove(_ id: UInt64, releasing released: inout [AnyObject])
        -> _BusSubscriptionEntry?
    {
        guard let first = entries.removeValue(forKey: id) else { return nil }
        version &+= 1
        first.isCancelled.store(true, ordering: .releasing)
        guard !more.isEmpty, let others = more.removeValue(forKey: id) else { return first }
        for entry in others {
            entry.isCancelled.store(true, ordering: .releasing)
            released.append(entry)
        }
        return first
    }

    /// A `_BusRoutes` of `entries` and `more` in id order; reads nothing of the table.
    func makeRoutes(
        from entries: [UInt64: _BusSubscriptionEntry], more: [UInt64: [_BusSubscriptionEntry]]
    ) -> AnyObject { preconditionFailure("a table has an event type") }
}

final class _BusTypedTable<Event: BusEvent>: _BusTable {
    /// - Complexity: O(n log n) for n entries.
    override func makeRoutes(
        from entries: [UInt64: _BusSubscriptionEntry], more: [UInt64: [_BusSubscriptionEntry]]
    ) -> AnyObject {
        var ordered: [_BusEntry<Event>] = []
        ordered.reserveCapacity(entries.count)
        for (id, first) in entries.sorted(by: { $0.key < $1.key }) {
            ordered.append(knownCast(first, to: _BusEntry<Event>.self))
            for other in more[id] ?? [] {
                ordered.append(knownCast(other, to: _BusEntry<Event>.self))
            }
        }
        return _BusRoutes.make(ordered)
    }
}
