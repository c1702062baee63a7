/// The observers of one property, in registration order, with removal in amortised O(1) and
/// no hashing in the common case: an array with holes where observers were removed,
/// compacted when half of it is holes.
///
/// Each observer gets a number when added, which its token keeps (as its `detail`) and
/// ``_ObsAnyObserver/number`` records: while the observer has not been moved, it sits at
/// `slots[number - base]`, found at once. A compaction that only drops the holes before the
/// first observer moves no number (``base`` grows instead); one that closes holes between
/// observers moves those after them, and records where each moved observer is now in
/// ``moved``. A number that another observer took later is told apart by the id.
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
    /// The number whose place is `slots[0]`.
    private var base = 0
    /// Where each observer that a compaction moved off its number now is, as the number of
    /// its place, by id; `nil` while none is.
    private var moved: [UInt64: Int]?
    /// How many observers there are.
    private(set) var count = 0

    /// Up to this many slots, holes are not compacted.
    private static var compactedFrom: Int { 8 }
    /// The number of an observer kept in ``first``.
    private static var firstNumber: Int { -1 }

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

    /// Adds `observer` and gives it its number (also returned, for its token).
    ///
    /// - Complexity: amortised O(1).
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

    /// Removes the observer `id`, numbered `number`, and returns it, or `nil` when there is
    /// none.
    ///
    /// - Complexity: amortised O(1): compacting costs O(n) once half the slots are holes.
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

    /// Whether the observer `id`, numbered `number`, is there.
    func contains(_ id: UInt64, number: Int) -> Bool {
        first?.id == id || index(of: id, number: number) != nil
    }

    /// The place of the observer `id`, numbered `number`, in ``slots``.
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

    /// Closes the holes, keeping the order, into an array just big enough (so memory follows
    /// the observers down). The observers before the first hole that follows an observer
    /// keep their numbers' places (``base`` moves past the leading holes); each one after it
    /// is recorded in ``moved``, unless its new place is its own number again. The observers
    /// are moved, not copied: no reference count changes.
    ///
    /// - Complexity: O(n) for n slots.
    private mutating func compact() {
        let leading = slots.firstIndex { $0 != nil } ?? slots.count
        let (base, newBase) = (self.base, self.base + leading)
        var moved = self.moved.take()
        let live = count - (first == nil ? 0 : 1)
        let kept = [_ObsAnyObserver?](unsafeUninitializedCapacity: live) { kept, initialized in
            slots.withUnsafeMutableBufferPointer { slots in
                for index in leading..<slots.count where slots[index] != nil {
                    // The count is what makes writing into `kept` safe: checked, not assumed.
                    precondition(initialized < live, "observer table count out of step")
                    let place = newBase + initialized
                    if place != base + index {
                        let observer = slots[index].unsafelyUnwrapped
                        if place == observer.number {
                            moved?[observer.id] = nil
                        } else {
                            moved = moved ?? [:]
                            moved?[observer.id] = place
                        }
                    }
                    let from = slots.baseAddress.unsafelyUnwrapped + index
                    (kept.baseAddress.unsafelyUnwrapped + initialized).initialize(to: from.move())
                    from.initialize(to: nil)
                    initialized += 1
                }
            }
        }
        slots = kept
        self.base = newBase
        self.moved = moved?.isEmpty == false ? moved : nil
    }
}
