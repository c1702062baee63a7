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
    /// - Complexity: O(1) amortised, plus the publish. A sticky change to the same type
    ///   and subtype made at the same moment makes it compare subtypes again.
    @discardableResult
    public func publishSticky<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        let subtype = _BusErasedSubtype(AnyHashable(event.subtype))
        let slot = _BusStickySlot(Event.self, subtype)
        let replaced = _changeSticky(in: slot) { events in
            events.filter { $0.subtype != subtype } + [
                _BusStickyEvent(order: 0, event: event, subtype: subtype)
            ]
        }
        withExtendedLifetime(replaced) {}  // the old event is released after unlocking
        return publish(event)
    }

    /// Replaces the sticky events of `slot` with what `change` makes of them (`nil`: leave
    /// them), and returns the events it replaced.
    ///
    /// `change` runs with no lock held, because it compares subtypes (the app's code), on
    /// the slot's events as they were. Its result is stored only if the slot still has the
    /// stamp it had then (stamps are never reused), else `change` runs again on the newer
    /// events: a retry means another change to the slot was stored. An event that `change`
    /// adds with order 0 takes the stamp as its place in the order.
    private func _changeSticky(
        in slot: _BusStickySlot, _ change: ([_BusStickyEvent]) -> [_BusStickyEvent]?
    ) -> [_BusStickyEvent] {
        while true {
            let read = _state.withLock { $0.sticky[slot] }
            let events = read?.events ?? []
            guard let changed = change(events) else { return [] }
            let stored = _state.withLock { state -> Bool in
                guard state.sticky[slot]?.stamp == read?.stamp else { return false }
                state.stickyStamp &+= 1
                let stamp = state.stickyStamp
                state.sticky[slot] =
                    changed.isEmpty
                    ? nil
                    : _BusStickyList(
                        stamp: stamp,
                        events: changed.map {
                            $0.order != 0
                                ? $0
                                : _BusStickyEvent(
                                    order: stamp, event: $0.event, subtype: $0.subtype)
                        })
                return true
            }
            // `events` keeps what the change replaced alive until the caller releases it,
            // after unlocking.
            if stored { return events }
        }
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
        // Copied under the lock (no copy is made: the storage is shared until written),
        // searched after unlocking.
        let sticky = _state.withLock { $0.sticky }
        return Self._sticky(for: topic, in: sticky).last
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
        guard let subtype = topic.subtype else {
            let type = ObjectIdentifier(Event.self)
            let removed = _state.withLock { state -> [_BusStickyList] in
                let slots = state.sticky.keys.filter { $0.type == type }
                return slots.compactMap { state.sticky.removeValue(forKey: $0) }
            }
            return removed.reduce(0) { $0 + $1.events.count }  // released after unlocking
        }
        let erased = _BusErasedSubtype(AnyHashable(subtype))
        var count = 0
        let replaced = _changeSticky(in: _BusStickySlot(Event.self, erased)) { events in
            let kept = events.filter { $0.subtype != erased }
            count = events.count - kept.count
            return count == 0 ? nil : kept
        }
        withExtendedLifetime(replaced) {}  // the events are released after unlocking
        return count
    }

    /// The events of `sticky` (the bus's sticky events, copied) that `topic` matches,
    /// oldest first. With no lock held: it compares subtypes.
    @usableFromInline
    static func _sticky<Event: BusEvent>(
        for topic: BusTopic<Event>, in sticky: [_BusStickySlot: _BusStickyList]
    ) -> [Event] {
        guard !sticky.isEmpty else { return [] }
        guard let subtype = topic.subtype else {
            let type = ObjectIdentifier(Event.self)
            return sticky.filter { $0.key.type == type }.values.flatMap(\.events)
                .sorted { $0.order < $1.order }.map { $0.event as! Event }
        }
        let erased = _BusErasedSubtype(AnyHashable(subtype))
        let events = sticky[_BusStickySlot(Event.self, erased)]?.events ?? []
        return events.filter { $0.subtype == erased }.map { $0.event as! Event }
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
