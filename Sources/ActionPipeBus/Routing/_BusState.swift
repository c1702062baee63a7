import ActionPipeConcurrency

/// Everything a bus knows, guarded by the bus's lock.
@usableFromInline
struct _BusState {
    /// Subscriptions per event type (mutable, in id order).
    var tables: [ObjectIdentifier: _BusTable] = [:]
    /// Per event type, a `_BusRoutes<Event>`; published at once on change.
    var routes: [ObjectIdentifier: AnyObject] = [:] {
        didSet { retiredTables += published.store(_BusRouteTable.make(routes)) }
    }
    let published: SnapshotCell<_BusRouteTable>
    var retiredTables: [AnyObject] = []
    var records: [UInt64: _BusRecord] = [:]
    @usableFromInline var sticky: [ObjectIdentifier: _BusStickySlots] = [:]
    /// Stamps each sticky list, and orders sticky events for replay.
    var stickyStamp: UInt64 = 0

    /// Removes and cancels the subscriptions `ids`; returns what to release after unlocking.
    mutating func remove(_ ids: some Collection<UInt64>) -> [AnyObject] {
        var released: [AnyObject] = []
        // Changed on a copy and stored once: each store publishes a new table.
        var routes = self.routes
        var replaced: [AnyObject] = []
        var changed = false
        for id in ids {
            guard let record = records.removeValue(forKey: id) else { continue }
            forget(id, of: record.owner)
            for type in CollectionOfOne(record.type) + record.otherTypes {
                guard let table = tables[type], let entry = table.remove(id, releasing: &released)
                else { continue }
                released.append(entry)
                // The last entry drops the type's routes; another marks them stale.
                if table.entries.isEmpty {
                    tables[type] = nil
                    if let old = routes.removeValue(forKey: type) { replaced.append(old) }
                    changed = true
                } else if routes[type] !== _busStaleRoutes {
                    if let old = routes.updateValue(_busStaleRoutes, forKey: type) {
                        replaced.append(old)
                    }
                    changed = true
                }
            }
        }
        guard changed else { return released }
        self.routes = routes
        return released + replaced + takeRetired()
    }

    /// The tables replaced during this change, to release after unlocking.
    private mutating func takeRetired() -> [AnyObject] {
        defer { retiredTables = [] }
        return retiredTables
    }

    private mutating func forget(_ id: UInt64, of owner: _BusOwner?) {
        guard let owner, var ids = byOwner.removeValue(forKey: owner.id) else { return }
        ids.remove(id)
        if !ids.isEmpty { byOwner[owner.id] = ids }
    }

    /// Subscription count at which the next subscribe prunes gone subscribers.
    var pruneThreshold = 64
    /// Each owner's subscription ids, for removal by subscriber.
    var byOwner: [ObjectIdentifier: Set<UInt64>] = [:]

    mutating func record(_ id: UInt64, _ record: _BusRecord) {
        records[id] = record
        if let owner = record.owner { byOwner[owner.id, default: []].insert(id) }
    }

    /// Adds `entry` and marks its type's routes stale; returns what to release after unlocking.
    mutating func add(_ entry: _BusSubscriptionEntry, type: ObjectIdentifier) -> [AnyObject] {
        let table = tables[type] ?? _BusTable()
        tables[type] = table
        table.add(entry)
        // Rebuilt by the next publish; a table is published only when the type turns stale.
        guard routes[type] !== _busStaleRoutes else { return [] }
        let old = routes.updateValue(_busStaleRoutes, forKey: type)
        return takeRetired() + (old.map { [$0] } ?? [])
    }

    /// The routes of `type` (`nil` without subscribers) or, when stale, what rebuilding
    /// them needs (the entries are copied on write).
    func routesToRefresh(_ type: ObjectIdentifier) -> (
        current: AnyObject?, stale: _BusStaleTable?
    ) {
        guard let current = routes[type] else { return (nil, nil) }
        guard current === _busStaleRoutes, let table = tables[type] else { return (current, nil) }
        return (
            nil,
            _BusStaleTable(
                type: type, table: table, entries: table.entries, more: table.more,
                version: table.version)
        )
    }

    /// Installs `fresh` unless the table changed meanwhile; returns the routes the publish
    /// uses (`fresh` even if not installed) and what to release after unlocking.
    mutating func install(_ fresh: AnyObject, builtFrom stale: _BusStaleTable) -> (
        routes: AnyObject?, released: [AnyObject]
    ) {
        guard let current = routes[stale.type] else { return (nil, [fresh]) }
        guard current === _busStaleRoutes else { return (current, [fresh]) }
        guard let table = tables[stale.type], table === stale.table,
            table.version == stale.version
        else { return (fresh, []) }
        routes[stale.type] = fresh
        return (fresh, takeRetired())
    }
}

/// Taken under the bus's lock, used after unlocking.
struct _BusStaleTable {
    let type: ObjectIdentifier
    let table: _BusTable
    let entries: [UInt64: _BusSubscriptionEntry]
    let more: [UInt64: [_BusSubscriptionEntry]]
    let version: UInt64
}

/// One subscription: which tables it is in and who owns it. Only a union stores other
/// types, and only an owned union its keys (a one-key subscription's key is its entry's).
struct _BusRecord {
    let type: ObjectIdentifier
    var otherTypes: [ObjectIdentifier] = []
    var keys: [BusEventKey] = []
    let owner: _BusOwner?
}

extension _BusRecord {
    /// `keys` is not empty.
    init(keys: [BusEventKey], owner: _BusOwner?) {
        let type = keys[0].type
        var others: [ObjectIdentifier] = []
        for key in keys.dropFirst() where key.type != type && !others.contains(key.type) {
            others.append(key.type)
        }
        self.init(type: type, otherTypes: others, keys: owner == nil ? [] : keys, owner: owner)
    }
}
