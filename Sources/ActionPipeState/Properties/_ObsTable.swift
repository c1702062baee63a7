/// The observers of one property, in registration order: an array with holes, compacted when
/// half of it is holes. An observer's number (its token's `detail`) finds it at
/// `slots[number - base]`, or in ``moved`` after a compaction; the id tells apart a reused
/// number. The first observer of an empty table sits in ``first`` (most properties have one).
/// Guarded by its property's lock.
@usableFromInline
struct _ObsTable {
    private var first: _ObsAnyObserver?
    private var slots: [_ObsAnyObserver?] = []
    private var base = 0
    /// The place of each observer a compaction moved off its number, by id.
    private var moved: [UInt64: Int]?
    private(set) var count = 0

    private static var compactedFrom: Int { 8 }
    private static var firstNumber: Int { -1 }

    var isEmpty: Bool { count == 0 }

    /// O(n) for n slots (at most twice the observers, past a few).
    func forEachObserver(_ body: (_ObsAnyObserver) -> Void) {
        if let first { body(first) }
        for observer in slots {
            if let observer { body(observer) }
        }
    }

    /// Adds `observer`; returns its number, for its token. Amortised O(1).
    mutating func add(_ observer: _ObsAnyObserver) -> Int {
        count += 1
        if count == 1 {
            first = observer
            observer.number = Self.firstNumber
            return Self.firstNumber
        }
        let number = base + slots.count
        slots.append(observer)
        observer.number = number
        return number
    }

    /// Amortised O(1): compacting costs O(n) once half the slots are holes.
    mutating func remove(_ id: UInt64, number: Int) -> _ObsAnyObserver? {
        if let first, first.id == id {
            self.first = nil
            count -= 1
            if count == 0 { removeAll() }
            return first
        }
        guard let index = index(of: id, number: number) else { return nil }
        let removed = slots[index]
        slots[index] = nil
        if moved != nil { moved?[id] = nil }
        count -= 1
        if count == 0 {
            removeAll()
        } else if slots.count > Self.compactedFrom, count * 2 < slots.count {
            compact()
        }
        return removed
    }

    func contains(_ id: UInt64, number: Int) -> Bool {
        first?.id == id || index(of: id, number: number) != nil
    }

    private func index(of id: UInt64, number: Int) -> Int? {
        let index = number &- base
        if slots.indices.contains(index), slots[index]?.id == id { return index }
        guard let place = moved?[id], slots.indices.contains(place - base),
            slots[place - base]?.id == id
        else { return nil }
        return place - base
    }

    private mutating func removeAll() {
        slots = []
        base = 0
        moved = nil
    }

    /// Closes the holes in order, in O(n) for n slots; ``base`` moves past leading holes and
    /// each observer moved off its number is recorded in ``moved``. Observers are taken out
    /// of their slots, not copied: no reference counting under the lock, no release.
    private mutating func compact() {
        let leading = slots.firstIndex { $0 != nil } ?? slots.count
        let newBase = base + leading
        var moved = self.moved.take() ?? [:]
        var kept: [_ObsAnyObserver?] = []
        kept.reserveCapacity(count)
        for index in leading..<slots.count {
            guard let observer = slots[index].take() else { continue }
            let place = newBase + kept.count
            if place != observer.number || !moved.isEmpty {  // no hashing when none moved
                moved[observer.id] = place == observer.number ? nil : place
            }
            kept.append(observer)
        }
        slots = kept
        base = newBase
        self.moved = moved.isEmpty ? nil : moved
    }
}
