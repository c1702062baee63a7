import Synchronization

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One observable value of a state object: read it, set it, observe it.
///
/// Every assignment is delivered to every observer synchronously, on the thread that
/// assigned, after the value is stored, with the new value — even when it equals the old one
/// (Minya's "data arrived" pulse; pass `.skipEqual` to filter). Usually declared through
/// ``Observed`` (`@Observed var url: String?`, observed as `state.$url`); it can also be a
/// plain `let` of a state object, which keeps the object's `Sendable` conformance checked.
///
/// ```swift
/// let url = ObservedProperty<String?>(nil, label: "url")
/// let token = url.observe { print("url is now", $0 ?? "nil") }
/// url.value = "https://example.com/1.jpg"   // prints at once, on this thread
/// token.cancel()
/// ```
///
/// `@unchecked Sendable`: the value, the observer list's address and the retired lists are
/// only touched with `lock` held; observer lists are immutable once published, and freed only
/// when no delivery reads them (see `_obsHazards`). No observer (user code) runs while
/// the lock is held.
public final class ObservedProperty<Value: Sendable>: @unchecked Sendable {
    /// The name used in cycle reports and descriptions.
    ///
    /// ```swift
    /// ObservedProperty(0, label: "selectedIndex").label   // "selectedIndex"
    /// ```
    public let label: String

    // Atomics and a raw pointer rather than stored `var`s: a class's stored `var` is checked
    // for exclusive access at run time on every read and write, which would cost more than the
    // rest of a set. `@usableFromInline`, and the get/set paths `@inlinable`, so a client
    // specialises them for its value type: unspecialised, every set looks up generic metadata.
    @usableFromInline let lock = _SpinLock()
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    /// The current `_ObsList` as a retained bit pattern, 0 when nobody observes. Written and
    /// read only with `lock` held (relaxed: the lock orders it).
    @usableFromInline let list = Atomic<UInt>(0)
    /// Whether replaced lists wait in `retired` for a delivery to end; the delivery that sees
    /// it set when it ends frees what it can.
    @usableFromInline let pending = Atomic<Bool>(false)
    /// Replaced lists that a delivery may still read, retained bit patterns; under `lock`.
    private var retired: [UInt] = []
    /// Every observer, by id (ids give registration order), guarded by `lock`. The list a
    /// set reads (`list`) is built from it lazily: observing marks it stale (bit 0 of `list`
    /// set, which the set path tests with the load it makes anyway), and
    /// the next set rebuilds it once for a whole burst of changes. Cancelling rebuilds it at
    /// once while fewer than 64 observers remain, or once as many were cancelled since the
    /// last build as remain: a cancelled observer is released promptly in the common case,
    /// and n cancels never cost O(n²).
    private var observerTable = _ObsTable<Value>()
    private var cancelledSinceBuilt = 0
    /// The threads' delivery records (`_obsHazards`), copied here once.
    @usableFromInline let hazards = _obsHazards

    /// Creates a property holding `value`.
    ///
    /// ```swift
    /// let selectedIndex = ObservedProperty(0, label: "selectedIndex")
    /// ```
    ///
    /// - Parameters:
    ///   - value: The initial value (not delivered to anyone: there are no observers yet).
    ///   - label: A name for cycle reports and descriptions; the value's type if omitted.
    public init(_ value: Value, label: String? = nil) {
        self.label = label ?? "ObservedProperty<\(Value.self)>"
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        // No other reference exists, so no set is running (a set's caller holds the
        // property) and no lock is needed. Ending the observers finishes their streams
        // (`values()`, actor deliveries), which end their loops.
        let current = list.load(ordering: .relaxed) & ~1
        for observer in observerTable.observers { observer.sink.end?() }
        if current != 0 { _ObsList<Value>.at(current).release() }
        for bits in retired { _ObsList<Value>.at(bits).release() }
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// The value now; setting it is ``set(_:)``.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// index.value = 3          // delivered to every observer, after the store
    /// print(index.value)       // 3
    /// ```
    public var value: Value {
        @inlinable get {
            lock.lock()
            let value = storage.pointee
            lock.unlock()
            return value
        }
        @inlinable set { set(newValue) }
    }

    /// Stores `newValue`, then calls every observer with it, in registration order, on this
    /// thread, before returning.
    ///
    /// Equal values are delivered too. Observers registered or removed by an observer during
    /// the delivery take effect from the next assignment. An observer may set this or any
    /// other property; the nested set is delivered before this one's remaining observers run.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// index.observe { print("selected", $0) }
    /// index.set(2)   // prints "selected 2"
    /// index.set(2)   // prints "selected 2" again: every assignment is a pulse
    /// ```
    ///
    /// - Complexity: O(observers); no allocation, one atomic read-modify-write (the lock).
    @inlinable
    public func set(_ newValue: Value) {
        lock.lock()
        var bits = list.load(ordering: .relaxed)
        if bits & 1 != 0 {
            // Observers changed since the list was built (rare): rebuild it first.
            lock.unlock()
            _rebuildList()
            lock.lock()
            bits = list.load(ordering: .relaxed) & ~1
        }
        let old = storage.move()
        storage.initialize(to: newValue)
        guard bits != 0 else {
            let reclaim = pending.load(ordering: .relaxed)
            lock.unlock()
            // The old value is released after unlocking: its deinit may be user code.
            withExtendedLifetime(old) {}
            if reclaim { reclaimRetired() }
            return
        }
        let thread = hazards.record()
        let depth = thread.depth
        guard depth < ObservationCycleError.depthLimit else {
            lock.unlock()
            withExtendedLifetime(old) {}
            return reportCycle(depth)
        }
        // Published under the lock: a writer that replaces the list takes the lock after this
        // and sees the slot, so it leaves the list to us.
        let slot = thread.slot(depth)
        slot.pointee.store(bits, ordering: .relaxed)
        lock.unlock()
        withExtendedLifetime(old) {}
        thread.depth = depth &+ 1
        deliver(newValue, _ObsList<Value>.at(bits))
        thread.depth = depth
        slot.pointee.store(0, ordering: .releasing)
        if pending.load(ordering: .relaxed) { reclaimRetired() }
    }

    /// Whether anyone observes the property.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// let token = index.observe { _ in }
    /// index.isObserved   // true
    /// ```
    public var isObserved: Bool {
        lock.lock()
        defer { lock.unlock() }
        return !observerTable.isEmpty
    }

    /// How many observers the property has.
    ///
    /// ```swift
    /// ObservedProperty(0).observerCount   // 0
    /// ```
    public var observerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return observerTable.count
    }

    /// Calls the observers of `list`, which the caller's hazard slot keeps alive.
    @inlinable @inline(__always)
    func deliver(_ value: Value, _ list: Unmanaged<_ObsList<Value>>) {
        list._withUnsafeGuaranteedRef { list in
            list.withUnsafeMutablePointers { count, observers in
                let count = count.pointee
                if count == 1 {
                    observers[0]._withUnsafeGuaranteedRef { observer in
                        if !observer.deliver(value) { removeGone([observer.id]) }
                    }
                    return
                }
                deliverToEach(value, observers, count)
            }
        }
    }

    /// Inlinable, so a client specialises it too: unspecialised, each call looks up the value
    /// type's metadata.
    @inlinable
    func deliverToEach(
        _ value: Value, _ observers: UnsafeMutablePointer<Unmanaged<_ObsObserver<Value>>>,
        _ count: Int
    ) {
        var gone: [UInt64] = []
        for index in 0..<count {
            observers[index]._withUnsafeGuaranteedRef { observer in
                if !observer.deliver(value) { gone.append(observer.id) }
            }
        }
        if !gone.isEmpty { removeGone(gone) }
    }

    @usableFromInline @inline(never)
    func reportCycle(_ depth: Int) {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
    }

    /// Removes the observers that reported themselves gone during a delivery.
    @usableFromInline @inline(never)
    func removeGone(_ ids: [UInt64]) {
        for id in ids { _ = _cancelObservation(id) }
    }

    /// Publishes a list of the current observers, in registration order, and returns what
    /// to release after unlocking. Call with `lock` held.
    ///
    /// - Complexity: O(n) for n observers.
    private func buildList() -> [UInt] {
        let old = list.load(ordering: .relaxed) & ~1
        let observers = observerTable.observers
        list.store(_ObsList<Value>.make(observers), ordering: .relaxed)
        cancelledSinceBuilt = 0
        if old != 0 { retired.append(old) }
        return collectRetired()
    }

    /// Marks the list a set reads out of date (bit 0); the old list stays published until
    /// the rebuild retires it. Call with `lock` held.
    private func markStale() {
        list.store(list.load(ordering: .relaxed) | 1, ordering: .relaxed)
    }

    /// Rebuilds the list a set reads, if observers changed since it was built.
    @usableFromInline @inline(never)
    func _rebuildList() {
        lock.lock()
        let free = list.load(ordering: .relaxed) & 1 != 0 ? buildList() : []
        lock.unlock()
        release(free)
    }

    /// Removes and returns the retired lists no delivery reads; sets `pending` while some
    /// remain. Call with `lock` held.
    private func collectRetired() -> [UInt] {
        guard !retired.isEmpty else { return [] }
        let free = hazards.takeUnread(&retired)
        pending.store(!retired.isEmpty, ordering: .relaxed)
        return free
    }

    /// Frees the retired lists no delivery reads any more; called by a delivery that ends
    /// while some are pending.
    @usableFromInline @inline(never)
    func reclaimRetired() {
        lock.lock()
        let free = collectRetired()
        lock.unlock()
        release(free)
    }

    /// Releases lists outside the lock: releasing their observers may run user code (deinits
    /// of what the closures captured).
    private func release(_ lists: [UInt]) {
        for bits in lists { _ObsList<Value>.at(bits).release() }
    }
}

extension ObservedProperty: _ObsSource {
    var _currentValue: Value { value }

    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: ObservationToken, value: Value) {
        let id = _obsMakeID()
        lock.lock()
        let value = storage.pointee
        let observer = _ObsObserver(id: id, sink: makeSink(value))
        observerTable.add(observer)
        markStale()
        lock.unlock()
        return (ObservationToken(source: self, id: id), value)
    }
}

extension ObservedProperty: _ObsCancellable {
    func _cancelObservation(_ id: UInt64) -> Bool {
        lock.lock()
        guard let removed = observerTable.remove(id) else {
            lock.unlock()
            return false
        }
        // Rebuilt at once while the list is short or half of it is cancelled (so the
        // observer, and what it captured, is released now); else marked stale, for the next
        // set or cancel to rebuild.
        cancelledSinceBuilt += 1
        var free: [UInt] = []
        let remaining = observerTable.count
        if remaining < 64 || cancelledSinceBuilt >= remaining {
            free = buildList()
        } else {
            markStale()
        }
        lock.unlock()
        // Ended and released outside the lock: both may run user code (deinits).
        removed.sink.end?()
        release(free)
        return true
    }

    func _isObserving(_ id: UInt64) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return observerTable.contains(id)
    }
}

extension ObservedProperty: CustomStringConvertible {
    /// The label and the value: `url = Optional("a.jpg")`.
    ///
    /// ```swift
    /// print(ObservedProperty(3, label: "index"))   // index = 3
    /// ```
    public var description: String { "\(label) = \(value)" }
}
