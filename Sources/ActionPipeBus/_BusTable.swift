import ActionPipeKernel

/// The subscriptions of one event type, with the event type erased.
protocol _BusTable: AnyObject {
    var isEmpty: Bool { get }
    /// Removes and cancels the entries with these ids; returns them for release.
    func remove(_ ids: Set<UInt64>) -> [AnyObject]
    func makeRoutes() -> AnyObject
}

/// The subscriptions of one event type, by id (ids give subscription order). A union over
/// several keys of this type has one entry per key, all with its id: the first in
/// `entries`, the others in `more`, so a plain subscription costs no array. Touched only
/// under the bus's lock.
final class _BusTypedTable<Event: BusEvent>: _BusTable {
    var entries: [UInt64: _BusEntry<Event>] = [:]
    var more: [UInt64: [_BusEntry<Event>]] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// Adds `entry` after those of its id.
    ///
    /// - Complexity: Amortised O(1).
    func add(_ entry: _BusEntry<Event>) {
        if entries[entry.id] == nil {
            entries[entry.id] = entry
        } else {
            more[entry.id, default: []].append(entry)
        }
    }

    /// - Complexity: O(k) for k ids.
    func remove(_ ids: Set<UInt64>) -> [AnyObject] {
        var removed: [AnyObject] = []
        for id in ids {
            guard let first = entries.removeValue(forKey: id) else { continue }
            first.isCancelled.store(true, ordering: .releasing)
            removed.append(first)
            guard !more.isEmpty, let others = more.removeValue(forKey: id) else { continue }
            for entry in others {
                entry.isCancelled.store(true, ordering: .releasing)
                removed.append(entry)
            }
        }
        return removed
    }

    /// - Complexity: O(n log n) for n entries.
    func makeRoutes() -> AnyObject {
        var ordered: [_BusEntry<Event>] = []
        ordered.reserveCapacity(entries.count)
        for (id, first) in entries.sorted(by: { $0.key < $1.key }) {
            ordered.append(first)
            if let others = more[id] { ordered += others }
        }
        return _BusRoutes.make(ordered)
    }
}
