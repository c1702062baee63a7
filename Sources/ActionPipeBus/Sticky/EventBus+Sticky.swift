import ActionPipeConcurrency

extension EventBus {
    /// Publishes `event` and keeps it, replacing the previous one of its subtype: every later
    /// matching subscription receives it while subscribing.
    ///
    /// - Complexity: ``publish(_:)``'s, plus O(s) for the s sticky events of its subtype.
    @discardableResult
    public func publishSticky<Event: BusEvent>(_ event: Event) -> BusPublishResult {
        _changeSticky(of: event.subtype, adding: event)
        return publish(event)
    }

    /// Drops the slot's events of `subtype` (compared unlocked: app code), adds `event`, and
    /// stores it if the slot's stamp is unchanged, else retries. Returns how many it dropped.
    @discardableResult
    private func _changeSticky<Event: BusEvent>(of subtype: Event.Subtype, adding event: Event?)
        -> Int
    {
        let type = ObjectIdentifier(Event.self)
        let hash = subtype.hashValue
        while true {
            let before = _state.withLock { $0.sticky[type]?[hash] }
            let kept = (before?.events ?? []).filter {
                _BusStickyEvent<Event>.unbox($0).event.subtype != subtype
            }
            let removedCount = (before?.events.count ?? 0) - kept.count
            if event == nil && removedCount == 0 { return 0 }
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
            guard stored else { continue }
            withExtendedLifetime(before) {}  // the replaced events are released after unlocking
            return removedCount
        }
    }

    /// The sticky event of `topic` (the newest, for `anySubtypeOf`), if any.
    ///
    /// - Complexity: O(1) with a subtype; O(k log k) for k sticky events of any subtype.
    @inlinable
    public func stickyEvent<Event: BusEvent>(for topic: BusTopic<Event>) -> Event? {
        guard let slots = _state.withLock({ $0.sticky[ObjectIdentifier(Event.self)] }) else {
            return nil
        }
        return Self._sticky(for: topic, in: slots).last
    }

    /// Removes the sticky events of `topic` (every subtype for `anySubtypeOf`); returns how many.
    ///
    /// - Complexity: O(s) for the s sticky events removed or compared.
    @discardableResult
    public func removeStickyEvents<Event: BusEvent>(for topic: BusTopic<Event>) -> Int {
        guard let subtype = topic.subtype else {
            let type = ObjectIdentifier(Event.self)
            let removed = _state.withLock { $0.sticky.removeValue(forKey: type) }
            return removed?.values.reduce(0) { $0 + $1.events.count } ?? 0
        }
        return _changeSticky(of: subtype, adding: nil as Event?)
    }

    /// Matches `slots` against `topic`, oldest first; unlocked (it hashes subtypes).
    @inlinable
    static func _sticky<Event: BusEvent>(
        for topic: BusTopic<Event>, in slots: _BusStickySlots
    ) -> [Event] {
        guard let subtype = topic.subtype else {
            var boxes = slots.values.flatMap { $0.events.map { _BusStickyEvent<Event>.unbox($0) } }
            if slots.count > 1 { boxes.sort { $0.order < $1.order } }
            // Closures, not `\.event`: unspecialised, a key path is built per call.
            return boxes.map { $0.event }
        }
        let boxes = slots[subtype.hashValue]?.events ?? []
        return boxes.map { _BusStickyEvent<Event>.unbox($0).event }.filter { $0.subtype == subtype }
    }

    /// As a publish would (inline, or on its executor), unlocked.
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

/// A sticky event and its order; boxed, so it is read back with a known cast.
@usableFromInline
final class _BusStickyEvent<Event: BusEvent>: Sendable {
    @usableFromInline let order: UInt64
    @usableFromInline let event: Event

    init(order: UInt64, event: Event) {
        self.order = order
        self.event = event
    }

    @inlinable @inline(__always)
    static func unbox(_ box: any AnyObject & Sendable) -> _BusStickyEvent<Event> {
        knownCast(box, to: _BusStickyEvent<Event>.self)
    }
}

/// The sticky events of one subtype hash, oldest first, and the stamp of their change.
@usableFromInline
struct _BusStickyList: Sendable {
    let stamp: UInt64
    @usableFromInline let events: [any AnyObject & Sendable]
}

/// By subtype hash, computed unlocked, so the bus's lock only hashes integers.
@usableFromInline
typealias _BusStickySlots = [Int: _BusStickyList]
