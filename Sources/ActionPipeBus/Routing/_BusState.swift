import ActionPipeConcurrency

/// Everything a bus knows, guarded by the bus's lock.
@usableFromInline
struct _BusState {
    /// Per event type, its subscriptions (mutable, in id order).
    var tables: [ObjectIdentifier: _BusTable] = [:]
    /// Per event type, the routes publishes read: a `_BusRoutes<Event>`, replaced on change.
    var routes: [ObjectIdentifier: AnyObject] = [:] {
        // Every change is published to the table publishes read; the table it replaces is
        // kept until the change's caller drops what it released, outside the lock.
        didSet { retiredTables += published.store(_BusRouteTable.make(routes)) }
    }
    /// What publishes read; the bus holds the same cell. Stored only under the bus's lock.
    let published: SnapshotCell<_BusRouteTable>
    /// Tables replaced during the current change; handed out with what it released.
    var retiredTables: [AnyObject] = []
    /// Every live subscription, by id.
    var records: [UInt64: _BusRecord] = [:]
    /// The last event published with `publishSticky` per event type and subtype, for late
    /// subscribers; a type with none has no entry.
    @usableFromInline var sticky: [ObjectIdentifier: _BusStickySlots] = [:]
    /// Counts stored sticky changes: stamps each slot's list, and orders sticky events, so
    /// several are replayed in the order they came.
    var stickyStamp: UInt64 = 0

    init(published: SnapshotCell<_BusRouteTable>) {
        self.published = published
    }

    /// Removes the subscriptions `ids` from every table they are in, marks them cancelled,
    /// and returns what the caller must release after unlocking.
    mutating func remove(_ ids: Set<UInt64>) -> [AnyObject] {
        var released: [AnyObject] = []
        // Changed on a copy and stored once, and only if a type's routes changed: each store
        // publishes a new table to the publishes. Routes already stale stay so: removing more
        // costs no publication.
        var routes = self.routes
        var changed = false
        for id in ids {
            guard let (_, entry) = removeRecord(id, from: &routes, &changed, &released),
                let entry
            else { continue }
            released.append(entry)
        }
        if changed { released += publish(routes) }
        return released
    }

    /// Removes the subscription `id`, if registered: `remove(_:)` for one id, with nothing
    /// to allocate in the usual case (one event type, its routes already stale). Returns
    /// the record, the entry and what else was released, all for the caller to release
    /// after unlocking.
    mutating func remove(_ id: UInt64) -> (
        record: _BusRecord, entry: AnyObject?, released: [AnyObject]
    )? {
        var released: [AnyObject] = []
        var routes = self.routes
        var changed = false
        guard let (record, entry) = removeRecord(id, from: &routes, &changed, &released)
        else { return nil }
        if changed { released += publish(routes) }
        return (record, entry, released)
    }

    /// Removes the record of subscription `id` and its entries from every table they are
    /// in (see `removeEntries`): returns the record and its first entry, or `nil` when `id`
    /// is not registered.
    private mutating func removeRecord(
        _ id: UInt64, from routes: inout [ObjectIdentifier: AnyObject], _ changed: inout Bool,
        _ released: inout [AnyObject]
    ) -> (_BusRecord, _BusSubscriptionEntry?)? {
        guard let record = records.removeValue(forKey: id) else { return nil }
        forget(id, of: record.owner)
        let entry = removeEntries(of: id, type: record.type, from: &routes, &changed, &released)
        for type in record.otherTypes {
            if let other = removeEntries(of: id, type: type, from: &routes, &changed, &released) {
                released.append(other)
            }
        }
        return (record, entry)
    }

    /// Removes and cancels subscription `id`'s entries in the table of `type`, and drops
    /// the type's routes (for an emptied table) or marks them stale, in `routes`: returns
    /// the first entry; appends the others and the replaced routes to `released`.
    private mutating func removeEntries(
        of id: UInt64, type: ObjectIdentifier, from routes: inout [ObjectIdentifier: AnyObject],
        _ changed: inout Bool, _ released: inout [AnyObject]
    ) -> _BusSubscriptionEntry? {
        guard let table = tables[type], let first = table.remove(id, releasing: &released)
        else { return nil }
        if table.isEmpty {
            tables[type] = nil
            if let old = routes.removeValue(forKey: type) { released.append(old) }
            changed = true
        } else if !table.routesAreStale {
            table.routesAreStale = true
            if let old = routes.updateValue(_busStaleRoutes, forKey: type) { released.append(old) }
            changed = true
        }
        return first
    }

    /// Stores `routes`, which publishes them; returns the tables they replaced.
    private mutating func publish(_ routes: [ObjectIdentifier: AnyObject]) -> [AnyObject] {
        self.routes = routes
        defer { retiredTables = [] }
        return retiredTables
    }

    /// Drops `id` from the subscriptions of `owner`, if it has one.
    private mutating func forget(_ id: UInt64, of owner: _BusOwner?) {
        guard let owner, var ids = byOwner.removeValue(forKey: owner.id) else { return }
        ids.remove(id)
        if !ids.isEmpty { byOwner[owner.id] = ids }
    }

    /// Subscription count at which the next subscribe prunes gone subscribers.
    var pruneThreshold = 64
    /// The ids of each owner's subscriptions, for removal by subscriber in O(its own).
    var byOwner: [ObjectIdentifier: Set<UInt64>] = [:]

    /// Registers the record of subscription `id`.
    mutating func record(_ id: UInt64, _ record: _BusRecord) {
        records[id] = record
        if let owner = record.owner { byOwner[owner.id, default: []].insert(id) }
    }

    /// Adds `entry` to the table of its event type, `type`, and marks that type's routes
    /// stale; returns the replaced routes and the tables now free, to release after
    /// unlocking.
    mutating func add(_ entry: _BusSubscriptionEntry, type: ObjectIdentifier) -> [AnyObject] {
        let table: _BusTable
        if let existing = tables[type] {
            table = existing
        } else {
            table = entry.makeTable()
            tables[type] = table
        }
        table.add(entry)
        // The routes are rebuilt by the next publish of this type (`_refreshRoutes`), once
        // for a whole burst of changes; a table is published only when the type turns stale.
        guard !table.routesAreStale else { return [] }
        table.routesAreStale = true
        let old = routes.updateValue(_busStaleRoutes, forKey: type)
        defer { retiredTables = [] }
        return retiredTables + (old.map { [$0] } ?? [])
    }

    /// The routes of `type` (`nil` when nobody subscribes to the type) or, when a change
    /// left them stale, what rebuilding them needs: the table, a copy of its entries, and
    /// its version.
    ///
    /// - Complexity: O(1): the entries are copied on write.
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

    /// Installs `fresh`, the routes built from `stale`, unless the table changed since or
    /// other routes were installed meanwhile. Returns the routes the publish uses, and what
    /// the caller must release after unlocking.
    ///
    /// Routes that cannot be installed still serve the publish that built them: they are
    /// the subscriptions as they were when it looked, and a subscription cancelled since is
    /// skipped (its entry is marked cancelled).
    mutating func install(_ fresh: AnyObject, builtFrom stale: _BusStaleTable) -> (
        routes: AnyObject?, released: [AnyObject]
    ) {
        guard let current = routes[stale.type] else { return (nil, [fresh]) }
        guard current === _busStaleRoutes else { return (current, [fresh]) }
        guard let table = tables[stale.type], table === stale.table,
            table.version == stale.version
        else { return (fresh, []) }
        routes[stale.type] = fresh
        table.routesAreStale = false
        defer { retiredTables = [] }
        return (fresh, retiredTables)
    }
}

/// What rebuilding a type's stale routes needs, taken under the bus's lock and used after
/// unlocking.
struct _BusStaleTable {
    let type: ObjectIdentifier
    let table: _BusTable
    let entries: [UInt64: _BusSubscriptionEntry]
    let more: [UInt64: [_BusSubscriptionEntry]]
    let version: UInt64

    /// The routes of the entries; with no lock held.
    func makeRoutes() -> AnyObject { table.makeRoutes(from: entries, more: more) }
}
