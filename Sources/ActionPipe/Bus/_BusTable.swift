import ActionPipeKernel

/// The subscriptions of one event type, with the event type erased.
protocol _BusTable: AnyObject {
    var isEmpty: Bool { get }
    /// Removes and cancels the entries with these ids; returns them for release.
    func remove(_ ids: Set<UInt64>) -> [AnyObject]
    func makeRoutes() -> AnyObject
}

/// The subscriptions of one event type, by id (ids give subscription order; a union has
/// one entry per key, all with its id). Touched only under the bus's lock.
final class _BusTypedTable<Event: BusEvent>: _BusTable {
    var entries: [UInt64: [_BusEntry<Event>]] = [:]

    var isEmpty: Bool { entries.isEmpty }

    /// - Complexity: O(k) for k ids.
    func remove(_ ids: Set<UInt64>) -> [AnyObject] {
        var removed: [AnyObject] = []
        for id in ids {
            guard let group = entries.removeValue(forKey: id) else { continue }
            for entry in group {
                entry.isCancelled.store(true, ordering: .releasing)
                removed.append(entry)
            }
        }
        return removed
    }

    /// - Complexity: O(n log n) for n entries.
    func makeRoutes() -> AnyObject {
        _BusRoutes(entries.sorted { $0.key < $1.key }.flatMap(\.value))
    }
}
