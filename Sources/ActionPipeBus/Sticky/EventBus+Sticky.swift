import ActionPipeConcurrency

extension EventBus {
    /// Publishes `event` and keeps it as its topic's sticky event: every later matching
    /// subscription receives it at once (greenrobot's `postSticky`, an MQTT retained
    /// message). A newer sticky event of the same type and subtype replaces it. For
    /// state-like events a late subscriber needs (the logged-in user).
    ///
    /// ```swift
    /// bus.publishSticky(Login(user: "ada"))
    /// bus.subscribe(BusTopic(Login.self, .login)) { login in
    ///     print(login.user)   // prints "ada" at once, while subscribing
    /// }
    /// ```
    ///
    /// A subscription made meanwhile may receive it twice (replayed and published).
    ///
    /// - Returns: What the publish did, as ``publish(_:)`` returns it.
    @discardableResult
    public func publishSticky<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        let replaced = _changeSticky(
            of: event.subtype, adding: event, keeping: { $0.subtype != event.subtype })
        withExtendedLifetime(replaced) {}  // the old event is released after unlocking
        return publish(event)
    }

    /// Keeps the slot's events `keep` accepts, then adds `event` as the newest; returns the
    /// slot's events before (released by the caller, unlocked) and how many were refused.
    ///
    /// Hashing and `keep` (app code) run unlocked on the events as they were; the result is
    /// stored only if the slot's stamp (never reused) is unchanged, else it retries.
    private func _changeSticky<Event: BusEvent>(
        of subtype: Event.Subtype, adding event: Event?, keeping keep: (Event) -> Bool
    ) -> (before: _BusStickyList?, removedCount: Int) {
        let type = ObjectIdentifier(Event.self)
        let hash = subtype.hashValue
        while true {
            let before = _state.withLock { $0.sticky[type]?[hash] }
            let kept = (before?.events ?? []).filter {
                keep(_BusStickyEvent<Event>.unbox($0).event)
            }
            let removedCount = (before?.events.count ?? 0) - kept.count
            if event == nil && removedCount == 0 { return (nil, 0) }
            let stored = _state.withLock { state -> Bool in
                guard state.sticky[type]?[hash]?.stamp == before?.stamp else { return false }
                state.stickyStamp &+= 1
                let stamp = state.stickyStamp
                var events = kept
                if let event { events.append(_BusStickyEvent(order: stamp, event: event)) }
                state.sticky[type, default: [:]][hash] =
                    events.isEmpty ? nil : _BusStickyList(stamp: stamp, events: events)
                if state.sticky[type]?.isEmpty == true { state.sticky[type] = nil }
                return true
            }
            // `before` keeps what the change replaced alive until the caller releases it.
            if stored { return (before, removedCount) }
        }
    }

    /// The sticky event of `topic`'s type and subtype, if one was published and not removed.
    ///
    /// - Complexity: O(1) with a subtype; O(k log k) for `anySubtypeOf`, with k sticky
    ///   events of the type (the newest is returned).
    @inlinable
    public func stickyEvent<Event: BusEvent>(for topic: BusTopic<Event>) -> Event? {
        // Copied under the lock (shared storage, no copy), searched after unlocking.
        guard let slots = _state.withLock({ $0.sticky[ObjectIdentifier(Event.self)] }) else {
            return nil
        }
        return Self._sticky(for: topic, in: slots).last
    }

    /// Removes the sticky events of `topic` (of every subtype for `anySubtypeOf`), so
    /// later subscribers no longer receive them.
    ///
    /// - Returns: How many sticky events were removed.
    @discardableResult
    public func removeStickyEvents<Event: BusEvent>(for topic: BusTopic<Event>) -> Int {
        guard let subtype = topic.subtype else {
            let type = ObjectIdentifier(Event.self)
            let removed = _state.withLock { $0.sticky.removeValue(forKey: type) }
            return removed?.values.reduce(0) { $0 + $1.events.count } ?? 0
        }
        let (before, removedCount) = _changeSticky(
            of: subtype, adding: nil as Event?, keeping: { $0.subtype != subtype })
        withExtendedLifetime(before) {}  // the events are released after unlocking
        return removedCount
    }

    /// Matches `slots` (copied) against `topic`, oldest first. Unlocked: it hashes and
    /// compares subtypes.
    @inlinable
    static func _sticky<Event: BusEvent>(
        for topic: BusTopic<Event>, in slots: _BusStickySlots
    ) -> [Event] {
        guard let subtype = topic.subtype else {
            var boxes: [_BusStickyEvent<Event>] = []
            for list in slots.values {
                for box in list.events { boxes.append(_BusStickyEvent<Event>.unbox(box)) }
            }
            if slots.count > 1 { boxes.sort { $0.order < $1.order } }
            // A closure, not `\.event`: unspecialised, that key path is built per call.
            return boxes.map { $0.event }
        }
        guard let list = slots[subtype.hashValue] else { return [] }
        var events: [Event] = []
        for box in list.events {
            let event = _BusStickyEvent<Event>.unbox(box).event
            if event.subtype == subtype { events.append(event) }
        }
        return events
    }

    /// As a publish would (inline, or on its executor); no lock is held.
    @usableFromInline
    func _replaySticky<Event: BusEvent>(_ events: [Event], to entry: _BusEntry<Event>) {
        for event in events {
            if let executor = entry.executor {
                executor.enqueue { entry._runReportingErrors(event) }
            } else {
                entry._runReportingErrors(event)
            }
        }
    }
}
