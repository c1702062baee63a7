import ActionPipeConcurrency
import Synchronization

/// One observable value of a state object: read it, set it, observe it.
///
/// Every assignment is delivered to every observer synchronously, on the assigning thread,
/// after the value is stored, even when it equals the old one (pass `.skipEqual` to filter).
/// Usually declared through ``Observed`` (`@Observed var url: String?`, observed as `state.$url`).
///
/// `@unchecked Sendable`: `state` is only touched with `lock` held, and no observer runs
/// while it is held.
public final class ObservedProperty<Value: Sendable>: @unchecked Sendable {
    /// The name used in cycle reports and descriptions.
    public var label: String { _label ?? "ObservedProperty<\(Value.self)>" }
    /// Made when asked for, so a property without a label stores no string.
    private let _label: String?

    // A spin lock and a raw pointer: a stored `var` would be checked for exclusivity at run time.
    @usableFromInline let lock = SpinLock()
    @usableFromInline let state: UnsafeMutablePointer<_ObsPropertyState<Value>>
    /// Pinned by a set under the lock, so an observer added after the store does not get it.
    @usableFromInline let observers = SnapshotCell<_ObsList>()
    /// Copied once: a global read from a client's specialised code calls its addressor.
    @usableFromInline let depthKey = NestingDepth.key
    /// The value's bits when ``_readsWord``: a read is one atomic load, no lock.
    @usableFromInline let word = Atomic<UInt>(0)
    /// Whether `@Observed` reads skip Swift Observation, so they may read ``word`` unlocked.
    @usableFromInline let untracked = Atomic<Bool>(false)

    /// Creates a property holding `value` (delivered to no one) named `label`.
    ///
    /// - Complexity: O(1).
    public init(_ value: Value, label: String? = nil) {
        _label = label
        state = .allocate(capacity: 1)
        state.initialize(to: _ObsPropertyState(value: value))
        if Self._readsWord { word.store(Self._bits(of: value), ordering: .relaxed) }
    }

    /// Whether the value is trivially copyable and fits a word, so a read takes ``word``.
    @inlinable static var _readsWord: Bool {
        _isPOD(Value.self) && MemoryLayout<Value>.size <= MemoryLayout<UInt>.size
    }

    @inlinable @inline(__always)
    static func _bits(of value: Value) -> UInt {
        var bits: UInt = 0
        withUnsafeMutableBytes(of: &bits) { word in
            withUnsafeBytes(of: value) { word.copyMemory(from: $0) }
        }
        return bits
    }

    @inlinable var _wordValue: Value {
        withUnsafeBytes(of: word.load(ordering: .acquiring)) {
            $0.baseAddress.unsafelyUnwrapped.load(as: Value.self)
        }
    }

    deinit {
        // The last reference is gone, so no set runs. Ending the observers finishes streams.
        state.pointee.table.forEachObserver { observer in observer.end?() }
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The value now; setting it is ``set(_:)``. A compound write (`value += 1`) mutates in
    /// place under the property's spin lock, then is delivered as one store.
    ///
    /// - Complexity: O(1) to read (one atomic load for a trivial value of at most a word).
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

    /// Begins a compound write; returns with the lock held. The caller mutates
    /// `state.pointee.value` in place, then calls ``_endMutation(_:)``.
    @inlinable @inline(__always)
    func _beginMutation() -> _ObsTracking<Value>? {
        lock.lock()
        guard state.pointee.storeNeedsSlowPath else { return nil }
        lock.unlock()
        return _beginMutationSlowly()
    }

    /// Takes the lock with the list up to date, having told Observation (returned) first.
    @inlinable @inline(never)
    func _beginMutationSlowly() -> _ObsTracking<Value>? {
        _lockWithCurrentList()
        guard state.pointee.readByTracking, let tracking = state.pointee.tracking else {
            return nil
        }
        lock.unlock()
        tracking.willSet(self)
        _lockWithCurrentList()
        return tracking
    }

    /// Stores the mutated value as one store, then tells Observation.
    @inlinable @inline(__always)
    func _endMutation(_ tracking: _ObsTracking<Value>?) {
        _storeLocked(state.pointee.value)
        tracking?.didSet(self)
    }

    /// Stores `newValue`, then calls every observer with it, in registration order, on this
    /// thread, before returning. Observers added or removed meanwhile take effect from the
    /// next assignment; a nested set is delivered before this one's remaining observers run.
    ///
    /// - Complexity: O(observers).
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

    /// Changes the value atomically (no concurrent store is lost), then delivers it as
    /// ``set(_:)`` does.
    ///
    /// `body` runs unlocked on a copy; if another store comes first it runs again on the
    /// newer value, so it must only compute. A `body` that throws changes nothing.
    ///
    /// - Returns: What `body` returned on the run whose value was stored.
    /// - Complexity: O(observers), plus one run of `body` per store another thread made
    ///   meanwhile.
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

    /// Call with the lock held; returns with it released.
    @inlinable @inline(__always)
    func _storeLocked(_ newValue: Value) {
        state.pointee.version &+= 1
        var old = newValue
        swap(&state.pointee.value, &old)
        if Self._readsWord { word.store(Self._bits(of: newValue), ordering: .releasing) }
        guard observers.hasSnapshot else {
            lock.unlock()
            // Released unlocked: its deinit may be user code.
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
        // Read under the lock: a writer replacing the list locks after this, so an observer
        // added after the store never gets this value.
        let previous = old
        observers.read(on: thread) { list in
            lock.unlock()
            withExtendedLifetime(previous) {}
            depth.pointee = level &+ 1
            deliver(newValue, list)
            depth.pointee = level
        }
    }

    /// A store that first rebuilds the observer list or tells Observation. With `expected`,
    /// stores only if the version has not moved.
    @inlinable @inline(never)
    func _storeSlowly(_ newValue: Value, ifVersion expected: UInt64?) -> Bool {
        let tracking = _beginMutationSlowly()
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
    /// - Complexity: O(1).
    public var isObserved: Bool { withLock { !$0.table.isEmpty } }

    /// How many observers the property has.
    ///
    /// - Complexity: O(1).
    public var observerCount: Int { withLock { $0.table.count } }

    /// Calls the observers of `list`, which the caller's read keeps alive.
    @inlinable @inline(__always)
    func deliver(_ value: Value, _ list: _ObsList) {
        if list.count == 1 {
            list.elements[0].as(_ObsObserver<Value>.self).with { observer in
                if !observer.deliver(value) { removeGone([(observer.id, observer.number)]) }
            }
            return
        }
        deliverToEach(value, list)
    }

    /// `@inlinable` so a client specialises it: unspecialised, each call looks up metadata.
    @inlinable
    func deliverToEach(_ value: Value, _ list: _ObsList) {
        var gone: [(id: UInt64, number: Int)] = []
        let observers = list.elements
        for index in 0..<list.count {
            observers[index].as(_ObsObserver<Value>.self).with { observer in
                if !observer.deliver(value) { gone.append((observer.id, observer.number)) }
            }
        }
        if !gone.isEmpty { removeGone(gone) }
    }

    @usableFromInline @inline(never)
    func reportCycle(_ depth: Int) {
        ObservationCycleError._report(.init(property: label, depth: depth + 1))
    }

    @usableFromInline @inline(never)
    func removeGone(_ gone: [(id: UInt64, number: Int)]) {
        for (id, number) in gone { _ = _cancelRegistration(id, detail: number) }
    }

    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout _ObsPropertyState<Value>) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state.pointee)
    }

    /// Takes the lock with the list up to date, rebuilt again if observers changed while
    /// the replaced lists were released.
    @usableFromInline @inline(never)
    func _lockWithCurrentList() {
        lock.lock()
        while state.pointee.listIsStale {
            do {
                let freed = buildList(&state.pointee)
                lock.unlock()
                // Released unlocked: their observers' captures may run user code.
                _ = consume freed
            }
            lock.lock()
        }
    }

    /// Publishes the current observers' list; returns the old lists, to release unlocked.
    /// Call with the lock held.
    private func buildList(_ state: inout _ObsPropertyState<Value>) -> [AnyObject] {
        state.cancelledSinceBuilt = 0
        state.listIsStale = false
        guard !state.table.isEmpty else { return observers.store(nil) }
        // Unretained: the table holds them until the buffer retains them.
        let list = _ObsList.make((), count: state.table.count) { append in
            state.table.forEachObserver { append(Unretained($0)) }
        }
        return observers.store(list)
    }
}

extension ObservedProperty: _ObsSource {
    /// Unlike ``_subscribe(_:)``, does not read the value, so no field's place depends on `Value`.
    @usableFromInline
    func _register(_ observer: _ObsAnyObserver) -> RegistrationToken {
        let number = withLock { state in
            state.listIsStale = true
            return state.table.add(observer)
        }
        return RegistrationToken(
            registry: self, id: observer.id, detail: number, scope: "observation")
    }

    @usableFromInline
    func _subscribe(
        _ makeObserver: (Value) -> _ObsObserver<Value>
    ) -> (token: RegistrationToken, value: Value) {
        let (id, number, value) = withLock { state in
            state.listIsStale = true
            let observer = makeObserver(state.value)
            return (observer.id, state.table.add(observer), state.value)
        }
        let token = RegistrationToken(registry: self, id: id, detail: number, scope: "observation")
        return (token, value)
    }
}

extension ObservedProperty: _Registry {
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        let outcome = withLock { state -> (_ObsAnyObserver, [AnyObject])? in
            guard let removed = state.table.remove(id, number: detail) else { return nil }
            // With no list published the table held the only reference.
            guard observers.hasSnapshot else { return (removed, []) }
            // Rebuilt now while short or half cancelled (releasing captures now); else stale.
            state.cancelledSinceBuilt += 1
            let remaining = state.table.count
            if remaining < 64 || Int(state.cancelledSinceBuilt) >= remaining {
                return (removed, buildList(&state))
            }
            state.listIsStale = true
            return (removed, [])
        }
        guard let (removed, freed) = outcome else { return false }
        // Ended and released unlocked: both may run user code.
        removed.end?()
        withExtendedLifetime(freed) {}
        return true
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        withLock { $0.table.contains(id, number: detail) }
    }
}

extension ObservedProperty: CustomStringConvertible {
    /// The label and the value: `index = 3`.
    public var description: String { "\(label) = \(value)" }
}
