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
/// `@unchecked Sendable`: the value and the observer list are only touched with `mutex`
/// held, and no observer (user code) runs while it is held.
public final class ObservedProperty<Value: Sendable>: @unchecked Sendable {
    /// The name used in cycle reports and descriptions.
    ///
    /// ```swift
    /// ObservedProperty(0, label: "selectedIndex").label   // "selectedIndex"
    /// ```
    public let label: String

    // Raw pointers rather than stored `var`s: a class's stored `var` is checked for exclusive
    // access at run time on every read and write, which would cost more than the rest of a set.
    // `@usableFromInline`, and the get/set paths `@inlinable`, so a client specialises them
    // for its value type: unspecialised, every set looks up generic metadata (~100 ns).
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    @usableFromInline let entries: UnsafeMutablePointer<ContiguousArray<_ObsEntry<Value>>>

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
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        entries = .allocate(capacity: 1)
        entries.initialize(to: [])
    }

    deinit {
        // No other reference exists, so no lock is needed; ending the observers finishes
        // their streams (`values()`, actor deliveries), which end their loops.
        let ending = entries.move()
        entries.deallocate()
        for entry in ending { entry.sink.end?() }
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
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
            pthread_mutex_lock(mutex)
            let value = storage.pointee
            pthread_mutex_unlock(mutex)
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
    /// - Complexity: O(observers); no allocation.
    @inlinable
    public func set(_ newValue: Value) {
        pthread_mutex_lock(mutex)
        let old = storage.move()
        storage.initialize(to: newValue)
        guard !entries.pointee.isEmpty else {
            pthread_mutex_unlock(mutex)
            // The old value is released after unlocking: its deinit may be user code.
            withExtendedLifetime(old) {}
            return
        }
        let snapshot = entries.pointee
        pthread_mutex_unlock(mutex)
        withExtendedLifetime(old) {}
        deliver(newValue, to: snapshot)
    }

    /// Whether anyone observes the property.
    ///
    /// ```swift
    /// let index = ObservedProperty(0)
    /// let token = index.observe { _ in }
    /// index.isObserved   // true
    /// ```
    public var isObserved: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return !entries.pointee.isEmpty
    }

    /// How many observers the property has.
    ///
    /// ```swift
    /// ObservedProperty(0).observerCount   // 0
    /// ```
    public var observerCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return entries.pointee.count
    }

    @inlinable
    func deliver(_ value: Value, to snapshot: ContiguousArray<_ObsEntry<Value>>) {
        _obsNested(label) {
            if snapshot.count == 1 {
                if !snapshot[0].sink.deliver(value) { removeGone([snapshot[0].id]) }
                return
            }
            var gone: [UInt64] = []
            for entry in snapshot where !entry.sink.deliver(value) {
                gone.append(entry.id)
            }
            if !gone.isEmpty { removeGone(gone) }
        }
    }

    /// Removes the observers that reported themselves gone during a delivery.
    @usableFromInline @inline(never)
    func removeGone(_ ids: [UInt64]) {
        for id in ids { _ = _cancelObservation(id) }
    }
}

extension ObservedProperty: _ObsSource {
    var _currentValue: Value { value }

    func _subscribe(
        _ makeSink: (Value) -> _ObsSink<Value>
    ) -> (token: ObservationToken, value: Value) {
        let id = _obsMakeID()
        pthread_mutex_lock(mutex)
        let value = storage.pointee
        entries.pointee.append(_ObsEntry(id: id, sink: makeSink(value)))
        pthread_mutex_unlock(mutex)
        return (ObservationToken(source: self, id: id), value)
    }
}

extension ObservedProperty: _ObsCancellable {
    func _cancelObservation(_ id: UInt64) -> Bool {
        pthread_mutex_lock(mutex)
        guard let index = entries.pointee.firstIndex(where: { $0.id == id }) else {
            pthread_mutex_unlock(mutex)
            return false
        }
        let removed = entries.pointee.remove(at: index)
        pthread_mutex_unlock(mutex)
        // Ended and released outside the lock: both may run user code (deinits).
        removed.sink.end?()
        return true
    }

    func _isObserving(_ id: UInt64) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return entries.pointee.contains { $0.id == id }
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
