import ActionPipeConcurrency

/// The subscriptions of one event type by id (a union's further entries in `more`), touched
/// only under the bus's lock. Not generic, so subscribe and cancel run no generic code.
final class _BusTable {
    @exclusivity(unchecked) var entries: [UInt64: _BusSubscriptionEntry] = [:]
    @exclusivity(unchecked) var more: [UInt64: [_BusSubscriptionEntry]] = [:]
    @exclusivity(unchecked) var version: UInt64 = 0

    /// Amortised O(1); O(n) once while a publish holds a copy of the entries.
    func add(_ entry: _BusSubscriptionEntry) {
        version &+= 1
        // One lookup for a new id; a union's further entry puts the first back.
        guard let first = entries.updateValue(entry, forKey: entry.id) else { return }
        entries[entry.id] = first
        more[entry.id, default: []].append(entry)
    }

    /// Removes and cancels `id`'s entries: returns the first; the others go to `released`.
    func remove(_ id: UInt64, releasing released: inout [AnyObject])
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
}
