extension EventBus {
    /// Removes every subscription of `subscriber` to exactly `key`, unions included; returns
    /// how many (0 when none: not an error).
    ///
    /// - Complexity: O(k) for the subscriber's k subscriptions, as the other forms.
    @discardableResult
    public func unsubscribe(_ subscriber: AnyObject, from key: BusEventKey) -> Int {
        _remove(_ids(of: subscriber) { $0.contains(key) })
    }

    /// Removes every subscription of `subscriber` that listens to `topic`; returns how many.
    @discardableResult
    public func unsubscribe<Event: BusEvent>(_ subscriber: AnyObject, from topic: BusTopic<Event>)
        -> Int
    {
        unsubscribe(subscriber, from: topic.key)
    }

    /// Removes every subscription of `subscriber` on this bus; returns how many.
    @discardableResult
    public func unsubscribeAll(_ subscriber: AnyObject) -> Int {
        _remove(_ids(of: subscriber) { _ in true })
    }

    private func _ids(
        of subscriber: AnyObject, where include: ([BusEventKey]) -> Bool
    ) -> Set<UInt64> {
        // Owner and keys are matched unlocked: identifiers are reused; keys compare app code.
        let candidates = _state.withLock {
            state -> [(UInt64, _BusOwner, _BusRecord, _BusSubscriptionEntry?)] in
            (state.byOwner[ObjectIdentifier(subscriber)] ?? []).compactMap { id in
                guard let record = state.records[id], let owner = record.owner else { return nil }
                return (id, owner, record, state.tables[record.type]?.entries[id])
            }
        }
        var ids = Set<UInt64>()
        for (id, owner, record, entry) in candidates where owner.holds(subscriber) {
            let keys = record.keys.isEmpty ? entry.map { [$0.key] } : record.keys
            if let keys, include(keys) { ids.insert(id) }
        }
        return ids
    }
}

extension EventBus: _Registry {
    package func _cancelRegistration(_ id: UInt64, detail: Int) -> Bool {
        _remove(CollectionOfOne(id)) == 1
    }

    package func _isRegistrationActive(_ id: UInt64, detail: Int) -> Bool {
        // The owner is read after unlocking (see `subscriptionCount`).
        let record = _state.withLock { state in state.records[id] }
        guard let record else { return false }
        return record.owner == nil || record.owner?.object != nil
    }
}
