/// The observers of one property, in registration order, with removal by id in amortised
/// O(1): an array with holes where observers were removed, compacted when half of it is
/// holes, and, past a few observers, the position of each id (a short table is scanned
/// instead, which saves a dictionary per property).
///
/// An observer added while the table is empty is kept in ``first``, outside the array: most
/// properties have one observer, and the array would cost more than the observer. Every
/// observer in ``slots`` was added after it, so ``first`` then ``slots`` is registration
/// order.
///
/// Not generic, so observing and cancelling run concrete code. Guarded by its property's lock.
@usableFromInline
struct _ObsTable {
    private var first: _ObsAnyObserver?
    private var slots: [_ObsAnyObserver?] = []
    /// The position of each id, once there are more than ``indexedFrom`` slots.
    private var positions: [UInt64: Int]?
    /// How many observers there are.
    private(set) var count = 0

    /// Up to this many slots, lookups scan.
    private static var indexedFrom: Int { 8 }

    /// Whether there is none.
    var isEmpty: Bool { count == 0 }

    /// Calls `body` with each observer, in registration order.
    ///
    /// - Complexity: O(n) for n slots (at most twice the observers, past a few).
    func forEachObserver(_ body: (_ObsAnyObserver) -> Void) {
        if let first { body(first) }
        for observer in slots {
            if let observer { body(observer) }
        }
    }

    /// - Complexity: amortised O(1).
    mutating func add(_ observer: _ObsAnyObserver) {
        if count == 0 {
            first = observer
            count = 1
            return
        }
        slots.append(observer)
        count += 1
        if positions != nil {
            positions?[observer.id] = slots.count - 1
        } else if slots.count > Self.indexedFrom {
            reindex()
        }
    }

    /// Removes the observer `id` and returns it, or `nil` when there is none.
    ///
    /// - Complexity: amortised O(1): compacting costs O(n) once half the slots are holes.
    mutating func remove(_ id: UInt64) -> _ObsAnyObserver? {
        if let first, first.id == id {
            self.first = nil
            count -= 1
            if count == 0 {
                slots = []
                positions = nil
            }
            return first
        }
        guard let position = position(of: id) else { return nil }
        positions?[id] = nil
        let removed = slots[position]
        slots[position] = nil
        count -= 1
        if slots.count > Self.indexedFrom, count * 2 < slots.count {
            slots = slots.filter { $0 != nil }
            reindex()
        } else if count == 0 {
            slots = []
            positions = nil
        }
        return removed
    }

    /// Whether the observer `id` is there.
    func contains(_ id: UInt64) -> Bool { first?.id == id || position(of: id) != nil }

    private func position(of id: UInt64) -> Int? {
        if let positions { return positions[id] }
        return slots.firstIndex { $0?.id == id }
    }

    private mutating func reindex() {
        guard slots.count > Self.indexedFrom else {
            positions = nil
            return
        }
        var index: [UInt64: Int] = [:]
        for (position, observer) in slots.enumerated() {
            if let observer { index[observer.id] = position }
        }
        positions = index
    }
}
