import ActionPipeConcurrency

/// The subscriptions of one event type by id (a union's further entries in `more`), in the
/// bus's state. Not generic, so subscribe and cancel run no generic code.
struct _BusTable {
    var entries: [UInt64: _BusSubscriptionEntry] = [:]
    var more: [UInt64: [_BusSubscriptionEntry]] = [:]
    /// The bus's stamp at its last change: routes built from a copy are installed only if
    /// it is unchanged.
    var version: UInt64 = 0

    /// Amortised O(1); O(n) once while a publish holds a copy of the entries.
    mutating func add(_ entry: _BusSubscriptionEntry, stamp: UInt64) {
        version = stamp
        // One lookup for a new id; a union's further entry puts the first back.
        guard let first = entries.updateValue(entry, forKey: entry.id) else { return }
        entries[entry.id] = first
        more[entry.id, default: []].append(entry)
    }

    /// Removes and cancels `id`'s entries: returns the first; the others go to `released`.
    mutating func remove(_ id: UInt64, stamp: UInt64, releasing released: inout [AnyObject])
        -> _BusSubscriptionEntry?
    {
        guard let first = entries.removeValue(forKey: id) else { return nil }
        version = stamp
        first.isCancelled.store(true, ordering: .releasing)
        guard !more.isEmpty, let others = more.removeValue(forKey: id) else { return first }
        for entry in others {
            entry.isCancelled.store(true, ordering: .releasing)
            released.append(entry)
        }
        return first
    }
}
