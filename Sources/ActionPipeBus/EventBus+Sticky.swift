import ActionPipeKernel

extension EventBus {
    /// Publishes `event` and keeps it as its topic's sticky event: every later subscription
    /// to a topic that matches it receives it at once, when it subscribes (greenrobot's
    /// `postSticky`, an MQTT retained message). A newer sticky event of the same type and
    /// subtype replaces it.
    ///
    /// Use it for state-like events a late subscriber needs (the logged-in user, the
    /// network's reachability); plain ``publish(_:)`` keeps nothing.
    ///
    /// ```swift
    /// bus.publishSticky(Login(user: "ada"))
    /// bus.subscribe(BusTopic(Login.self, .login)) { login in
    ///     print(login.user)   // prints "ada" at once, while subscribing
    /// }
    /// ```
    ///
    /// A subscription made while this call runs may receive the event twice (replayed and
    /// published).
    ///
    /// - Returns: What the publish did, as ``publish(_:)`` returns it.
    /// - Complexity: O(1) amortised, plus the publish.
    @discardableResult
    public func publishSticky<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        let key = BusTopic(Event.self, event.subtype).key
        let replaced = _state.withLock { state in
            state.stickyCount += 1
            return state.sticky.updateValue(
                _BusStickyEvent(order: state.stickyCount, event: event), forKey: key)
        }
        withExtendedLifetime(replaced) {}  // the old event is released after unlocking
        return publish(event)
    }

    /// The sticky event of `topic`'s type and subtype, if one was published and not removed.
    ///
    /// ```swift
    /// bus.stickyEvent(for: BusTopic(Login.self, .login))?.user   // "ada"
    /// ```
    ///
    /// - Complexity: O(1) for a topic with a subtype; O(k) for `anySubtypeOf`, with k
    ///   sticky events (the newest of the type is returned).
    public func stickyEvent<Event: BusEvent>(for topic: BusTopic<Event>) -> Event? {
        _state.withLock { state in Self._sticky(for: topic, in: state.sticky).last }
    }

    /// Removes the sticky events of `topic` (of its subtype, or of every subtype for
    /// `anySubtypeOf`), so later subscribers no longer receive them.
    ///
    /// ```swift
    /// bus.removeStickyEvents(for: BusTopic(Login.self, .login))   // logged out
    /// ```
    ///
    /// - Returns: How many sticky events were removed.
    /// - Complexity: O(1) for a topic with a subtype; O(k) for `anySubtypeOf`.
    @discardableResult
    public func removeStickyEvents<Event: BusEvent>(for topic: BusTopic<Event>) -> Int {
        let key = topic.key
        let removed = _state.withLock { state -> [_BusStickyEvent] in
            if !key.isAnySubtype {
                return state.sticky.removeValue(forKey: key).map { [$0] } ?? []
            }
            let keys = state.sticky.keys.filter { $0.type == key.type }
            return keys.compactMap { state.sticky.removeValue(forKey: $0) }
        }
        return removed.count  // the events are released after unlocking
    }

    /// The events of `sticky` (the bus's sticky events) that `topic` matches, oldest first.
    /// Call with the lock held.
    @usableFromInline
    static func _sticky<Event: BusEvent>(
        for topic: BusTopic<Event>, in sticky: [BusEventKey: _BusStickyEvent]
    ) -> [Event] {
        guard !sticky.isEmpty else { return [] }
        let key = topic.key
        if !key.isAnySubtype { return sticky[key].map { [$0.event as! Event] } ?? [] }
        return sticky.values.filter { ObjectIdentifier(type(of: $0.event)) == key.type }
            .sorted { $0.order < $1.order }.map { $0.event as! Event }
    }

    /// Delivers the sticky events of a new subscription's topic to its entry, as a publish
    /// would (inline, or on its executor); no lock is held.
    @usableFromInline
    func _replaySticky<Event: BusEvent>(_ events: [Event], to entry: _BusEntry<Event>) {
        for event in events {
            if let executor = entry.executor {
                executor.enqueue { entry._runReportingErrors(event) }
            } else if case .failure(let error) = entry._runLater(event) {
                _reportDropped(error, subscriber: entry.name, event: Event.self)
            }
        }
    }
}
