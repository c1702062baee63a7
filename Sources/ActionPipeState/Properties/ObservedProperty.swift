import ActionPipeConcurrency
import Synchronization

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
/// `@unchecked Sendable`: `state` is only touched with `lock` held; the observer lists a
/// set reads are immutable and kept alive by `observers` (a `SnapshotCell` of the
/// concurrency module) while pinned. No observer (user code) runs while the lock is held.
public final class ObservedProperty<Value: Sendable>: @unchecked Sendable {
    /// The name used in cycle reports and descriptions.
    ///
    /// ```swift
    /// ObservedProperty(0, label: "selectedIndex").label   // "selectedIndex"
    /// ```
    public var label: String { _label ?? "ObservedProperty<\(Value.self)>" }
    /// The label given at creation; the default is made when asked for, so a property
    /// without a label stores no string.
    private let _label: String?

    // A spin lock and a raw pointer rather than `LockedValue` or stored `var`s: the mutex
    // would double the cost of a set (see `SpinLock`), and a class's stored `var` is checked
    // for exclusive access at run time on every access. `@usableFromInline`, and the get/set
    // paths `@inlinable`, so a client specialises them for its value type: unspecialised,
    // every set looks up generic metadata.
    @usableFromInline let lock = SpinLock()
    /// The value and the observers; only touched with `lock` held.
    @usableFromInline let state: UnsafeMutablePointer<_ObsPropertyState<Value>>
    /// The observers a set calls, in registration order: pinned by the set (under the lock,
    /// so an observer added after the value was stored does not get it), stored only under
    /// the lock. Empty (no snapshot) when nobody observes.
    @usableFromInline let observers = SnapshotCell<_ObsList>()
    /// The threads' delivery depths, for cycle detection, copied here once (a global read
    /// from a client's specialised code costs a call to its addressor).
    @usableFromInline let depthKey = NestingDepth.key
    /// The value's bits, for a value of a trivially copyable type of at most a word
    /// (``_readsWord``): a read is one atomic load, no lock, no write. Stored with the value,
    /// under the lock.
    @usableFromInline let word = Atomic<UInt>(0)
    /// Whether reads through the `@Observed` wrapper are known to skip Swift Observation
    /// (its tracking mode is `.off`), so that they may read ``word`` with no lock.
    @usableFromInline let untracked = Atomic<Bool>(false)

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
        _label = label
        state = .allocate(capacity: 1)
        state.initialize(to: _ObsPropertyState(value: value))
        if Self._readsWord { word.store(Self._bits(of: value), ordering: .relaxed) }
    }

    /// Whether a read takes the value from ``word``: the value is trivially copyable and
    /// fits a word. Known when the property is specialised for its value type.
    @inlinable static var _readsWord: Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt>.size
    }

    /// The bits of `value`, a value of a type that ``_readsWord``.
    @inlinable @inline(__always)
    static func _bits(of value: Value) -> UInt {
        var bits: UInt = 0
        withUnsafeMutableBytes(of: &bits) { word in
            withUnsafeBytes(of: value) { word.copyMemory(from: $0) }
        }
        return bits
    }

    /// The value, read from ``word``: for a type that ``_readsWord``.
    @inlinable var _wordValue: Value { Self._value(of: word.load(ordering: .acquiring)) }

    /// Whether reads through the wrapper skip Swift Observation (see ``untracked``).
    @inlinable var _isUntracked: Bool { untracked.load(ordering: .relaxed) }

    /// Records that reads through the wrapper skip Swift Observation. Call with the lock
    /// held, when the tracking mode is decided.
    @usableFromInline func _markUntracked() { untracked.store(true, ordering: .relaxed) }

    /// The value whose bits are `bits`, of a type that ``_readsWord``.
    @inlinable @inline(__always)
    static func _value(of bits: UInt) -> Value {
        withUnsafeBytes(of: bits) { $0.baseAddress.unsafelyUnwrapped.load(as: Value.self) }
    }

    deinit {
        // No other reference exists, so no set is running (a set's caller holds the
        // property) and no lock is needed. Ending the observers finishes their streams
        // (`values()`, actor deliveries), which end their loops.
        state.pointee.table.forEachObserver { observer in observer.end?() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The value now; setting it is ``set(_:)``.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// index.value = 3          // delivered to every observer, after the store
    /// print(index.value)       // 3
    /// ```
    ///
    /// - Complexity: O(1). A value of a trivially copyable type of at most a word (`Int`,
    ///   `Double`, `Bool`, an enum without payloads, ...) is read with one atomic load: no
    ///   lock, and no write, so reads on many threads do not slow each other down.
    public var value: Value {
        @inlinable get {
            if Self._readsWord { return _wordValue }
            return withLock { $0.value }
        }
        @inlinable set { set(newValue) }
        @inlinable _modify {
            let mutation = _beginMutation()
            defer { _endMutation(mutation) }
            yield &state.pointee.value
        }
    }

    /// Begins a compound write (`value += 1`, `value.append(x)`): returns with the lock held,
    /// after telling Swift Observation that a change is coming if it must be told. The
    /// caller mutates `state.pointee.value` in place (no copy, so appending to an array
    /// stays O(1)), then calls ``_endMutation(_:)``.
    ///
    /// The mutation runs under the lock: it is the caller's own expression (its right-hand
    /// side is evaluated before the access begins), and a lock-free retry cannot be offered
    /// by an accessor, which yields once.
    @inlinable @inline(__always)
    func _beginMutation() -> _ObsTracking<Value>? {
        lock.lock()
        guard state.pointee.storeNeedsSlowPath else { return nil }
        lock.unlock()
        return _beginMutationSlowly()
    }

    /// ``_beginMutation()`` when the observer list must be rebuilt or Observation told.
    @inlinable @inline(never)
    func _beginMutationSlowly() -> _ObsTracking<Value>? {
        _lockWithCurrentList()
        guard state.pointee.readByTracking, let tracking = state.pointee.tracking else {
            return nil
        }
        lock.unlock()
        tracking.willSet(self)
        lock.lock()
        return tracking
    }

    /// Ends a compound write: stores the mutated value as one store (a new version, the
    /// word, the delivery to every observer after unlocking) and tells Observation it
    /// changed.
    @inlinable @inline(__always)
    func _endMutation(_ tracking: _ObsTracking<Value>?) {
        _storeLocked(state.pointee.value)
        tracking?.didSet(self)
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
        if state.pointee.storeNeedsSlowPath {
            lock.unlock()
            _ = _storeSlowly(newValue, ifVersion: nil)
            return
        }
        _storeLocked(newValue)
    }

    /// Changes the value in place, atomically: no store made meanwhile, on any thread, is
    /// lost. Then delivers the new value, as ``set(_:)`` does.
    ///
    /// `body` runs with no lock held, on a copy of the current value. If another store comes
    /// first, the copy is discarded and `body` runs again on the newer value, so it must
    /// only compute (no side effects it would not repeat). A `body` that throws changes
    /// nothing.
    ///
    /// ```swift
    /// let hits = ObservedProperty(0, label: "hits")
    /// hits.modify { $0 += 1 }           // from any number of threads: no lost update
    /// let old = hits.modify { value -> Int in
    ///     defer { value = 0 }
    ///     return value                  // read and reset in one step
    /// }
    /// ```
    ///
    /// - Returns: What `body` returned on the run whose value was stored.
    /// - Complexity: O(observers) plus the runs of `body`: one, and one more per store that
    ///   another thread made while `body` ran.
    @inlinable
    @discardableResult
    public func modify<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        while true {
            lock.lock()
            var value = state.pointee.value
            let version = state.pointee.version
            lock.unlock()
            let result = try body(&value)
            lock.lock()
            if state.pointee.storeNeedsSlowPath {
                lock.unlock()
                if _storeSlowly(value, ifVersion: version) { return result }
            } else if state.pointee.version == version {
                _storeLocked(value)
                return result
            } else {
                lock.unlock()
            }
        }
    }

    /// Stores `newValue` and delivers it to the observers. Call with the lock held; returns
    /// with it released.
    @inlinable @inline(__always)
    func _storeLocked(_ newValue: Value) {
        state.pointee.version &+= 1
        var old = newValue
        swap(&state.pointee.value, &old)
        if Self._readsWord { word.store(Self._bits(of: newValue), ordering: .releasing) }
        guard observers.hasSnapshot else {
            lock.unlock()
            // The old value is released after unlocking: its deinit may be user code.
            withExtendedLifetime(old) {}
            return
        }
        let thread = ThreadRecord.current(key: depthKey)
        let depth = thread.counter(.delivery)
        let level = depth.pointee
        guard level < ObservationCycleError.depthLimit else {
            lock.unlock()
            withExtendedLifetime(old) {}
            return reportCycle(level)
        }
        // Read under the lock (which `hasSnapshot` was checked under): a writer that replaces
        // the list takes the lock after this, so an observer added after the store above
        // never gets this value.
        let previous = old
        observers.read(on: thread) { list in
            lock.unlock()
            withExtendedLifetime(previous) {}
            depth.pointee = level &+ 1
            deliver(newValue, list)
            depth.pointee = level
        }
    }

    /// A store that must first rebuild the observer list, or tell Swift Observation (before
    /// the store and after the delivery, as `withMutation` does). With `expected`, stores
    /// only if no other store came since that version was read.
    ///
    /// Inlinable, so a client specialises it for its value type; never inlined, so the fast
    /// path of a set stays small.
    @inlinable @inline(never)
    func _storeSlowly(_ newValue: Value, ifVersion expected: UInt64?) -> Bool {
        _lockWithCurrentList()
        let tracking = state.pointee.readByTracking ? state.pointee.tracking : nil
        if let tracking {
            lock.unlock()
            tracking.willSet(self)
            _lockWithCurrentList()
        }
        if let expected, state.pointee.version != expected {
            lock.unlock()
            tracking?.didSet(self)
            return false
        }
        _storeLocked(newValue)
        tracking?.didSet(self)
        return true
    }

    /// Whether anyone observes the property.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// let token = index.observe { _ in }
    /// index.isObserved   // true
    /// ```
    public var isObserved: Bool { withLock { !$0.table.isEmpty } }

    /// How many observers the property has.
    ///
    /// ```swift
    /// ObservedProperty(0).observerCount   // 0
    /// ```
    public var observerCount: Int { withLock { $0.table.count } }

    /// Calls the observers of `list`, which the caller's read keeps alive.
    @inlinable @inline(__always)
    func deliver(_ value: Value, _ list: _ObsList) {
        if list.count == 1 {
            list.withElement(at: 0, as: _ObsObserver<Value>.self) { observer in
                if !observer.deliver(value) { removeGone([(observer.id, observer.number)]) }
            }
            return
        }
        deliverToEach(value, list)
    }

    /// Inlinable, so a client specialises it too: unspecialised, each call looks up the value
    /// type's metadata.
    @inlinable
    func deliverToEach(_ value: Value, _ list: _ObsList) {
        var gone: [(id: UInt64, number: Int)] = []
        // Every observer of this property observes a `Value`.
        list.forEach(as: _ObsObserver<Value>.self) { observer in
            if !observer.deliver(value) { gone.append((observer.id, observer.number)) }
        }
        if !gone.isEmpty { removeGone(gone) }
    }

    @usableFromInline @inline(never)
    func reportCycle(_ depth: Int) {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
    }

    /// Removes the observers that reported themselves gone during a delivery.
    @usableFromInline @inline(never)
    func removeGone(_ gone: [(id: UInt64, number: Int)]) {
        for (id, number) in gone { _ = _cancelRegistration(id, detail: number) }
    }

    /// Runs `body` with the lock held.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout _ObsPropertyState<Value>) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state.pointee)
    }

    /// Takes the lock with the list a set reads up to date: rebuilt if observers changed
    /// since it was built, again if they changed while the lists it replaced were released
    /// (an observer registered then is in the next store).
    @usableFromInline @inline(never)
    func _lockWithCurrentList() {
        lock.lock()
        while state.pointee.listIsStale {
            do {
                let freed = buildList(&state.pointee)
                lock.unlock()
                // Released outside the lock, at the end of this scope: releasing their
                // observers may run user code (deinits of what the closures captured),
                // which may register observers.
                _ = consume freed
            }
            lock.lock()
        }
    }

    /// Publishes a list of the current observers, in registration order, and returns the
    /// lists no set reads any more, to release after unlocking. Call with the lock held.
    ///
    /// - Complexity: O(n) for n observers.
    private func buildList(_ state: inout _ObsPropertyState<Value>) -> [AnyObject] {
        state.cancelledSinceBuilt = 0
        state.listIsStale = false
        return observers.store(_ObsList.make(state.table))
    }
}

extension ObservedProperty: _ObsSource {
    var _currentValue: Value { value }

    /// Adds an observer that needs nothing at registration: unlike ``_subscribe(_:)``, this
    /// does not read the value, so it touches no field whose place depends on `Value`.
    @usableFromInline
    func _register(_ observer: _ObsAnyObserver) -> RegistrationToken {
        let number = withLock { state in
            state.listIsStale = true
            return state.table.add(observer)
        }
        return RegistrationToken(
            registry: self, id: observer.id, detail: number, scope: "observation")
    }

    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: RegistrationToken, value: Value) {
        let id = _obsMakeID()
        let (number, value) = withLock { state in
            state.listIsStale = true
            return (
                state.table.add(_ObsObserver.make(id: id, sink: makeSink(state.value))), state.value
            )
        }
        return (
            RegistrationToken(registry: self, id: id, detail: number, scope: "observation"), value
        )
    }
}

extension ObservedProperty: _Registry {
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        let outcome = withLock { state -> (_ObsAnyObserver, [AnyObject])? in
            guard let removed = state.table.remove(id, number: detail) else { return nil }
            // With no list published, the table held the only reference: nothing to rebuild
            // (the next set builds the list from the table).
            guard observers.hasSnapshot else { return (removed, []) }
            // Rebuilt at once while the list is short or half of it is cancelled (so the
            // observer, and what it captured, is released now); else marked stale, for the
            // next set or cancel to rebuild.
            state.cancelledSinceBuilt += 1
            let remaining = state.table.count
            if remaining < 64 || Int(state.cancelledSinceBuilt) >= remaining {
                return (removed, buildList(&state))
            }
            state.listIsStale = true
            return (removed, [])
        }
        guard let (removed, freed) = outcome else { return false }
        // Ended and released outside the lock: both may run user code (deinits).
        removed.end?()
        withExtendedLifetime(freed) {}
        return true
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        withLock { $0.table.contains(id, number: detail) }
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
