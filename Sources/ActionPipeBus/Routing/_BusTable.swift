import ActionPipeConcurrency

/// The subscriptions of one event type, by id (ids give subscription order). A union over
/// several keys of this type has one entry per key, all with its id: the first in
/// `entries`, the others in `more`, so a plain subscription costs no array. Touched only
/// under the bus's lock.
///
/// Not generic: a subscribe and a cancel change it without the event type, so they run no
/// generic code; only building the routes, in ``_BusTypedTable``, needs the type.
class _BusTable {
    // The bus's lock already makes these accesses exclusive; `@exclusivity(unchecked)` drops
    // the runtime's check of each.
    @exclusivity(unchecked) final var entries: [UInt64: _BusSubscriptionEntry] = [:]
    @exclusivity(unchecked) final var more: [UInt64: [_BusSubscriptionEntry]] = [:]
    /// Whether the type's routes in the bus are the stale marker: kept here, so that a change
    /// knows without looking the routes up.
    @exclusivity(unchecked) final var routesAreStale = false
    /// Counts changes, so routes built from the entries with no lock held are installed
    /// only if no change came meanwhile.
    @exclusivity(unchecked) final var version: UInt64 = 0

    init() {}

    final var isEmpty: Bool { entries.isEmpty }

    /// Adds `entry` after those of its id.
    ///
    /// - Complexity: Amortised O(1); O(n) once when a publish holds a copy of the entries
    ///   to build routes from.
    final func add(_ entry: _BusSubscriptionEntry) {
        version &+= 1
        // One lookup for a new id; a union's further entries put its first one back.
        guard let first = entries.updateValue(entry, forKey: entry.id) else { return }
        entries[entry.id] = first
        more[entry.id, default: []].append(entry)
    }

    /// Removes and cancels the entries of subscription `id`: returns the first, and appends
    /// any others (a union's over several keys of this type) to `released`.
    ///
    /// - Complexity: O(1), plus O(k) for k more entries of the id; O(n) once when a publish
    ///   holds a copy of the entries to build routes from.
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

    /// The routes of `entries` and `more` (this table's, copied under the lock), in id
    /// order: a `_BusRoutes` of the table's event type. Reads nothing of the table itself,
    /// so it is called with no lock held: indexing entries by subtype hashes and compares
    /// subtypes, which may be the app's code.
    func makeRoutes(
        from entries: [UInt64: _BusSubscriptionEntry], more: [UInt64: [_BusSubscriptionEntry]]
    ) -> AnyObject { preconditionFailure("a table has an event type") }
}

/// The table of one event type, which builds that type's routes.
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
