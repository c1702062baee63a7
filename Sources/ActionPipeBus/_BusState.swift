import ActionPipeKernel

/// Everything a bus knows, guarded by the bus's lock.
@usableFromInline
struct _BusState {
    /// Per event type, its subscriptions (mutable, in id order).
    var tables: [ObjectIdentifier: any _BusTable] = [:]
    /// Per event type, the routes publishes read: a `_BusRoutes<Event>`, replaced on change.
    var routes: [ObjectIdentifier: AnyObject] = [:] {
        // Every change is published to the table publishes read; the table it replaces is
        // kept until the change's caller drops what it released, outside the lock.
        didSet { retiredTables += published.store(_BusRouteTable.make(routes)) as [AnyObject] }
    }
    /// What publishes read; the bus holds the same cell. Stored only under the bus's lock.
    let published: SnapshotCell<_BusRouteTable>
    /// Tables replaced during the current change; handed out with what it released.
    var retiredTables: [AnyObject] = []
    /// Every live subscription, by id.
    var records: [UInt64: _BusRecord] = [:]
    /// The last event published with `publishSticky` per event key, for late subscribers.
    var sticky: [BusEventKey: _BusStickyEvent] = [:]
    /// Counts sticky publishes, to replay several sticky events in the order they came.
    var stickyCount: UInt64 = 0

    init(published: SnapshotCell<_BusRouteTable>) {
        self.published = published
    }

    /// Removes the subscriptions `ids` from every table they are in, marks them cancelled,
    /// and returns what the caller must release after unlocking.
    mutating func remove(_ ids: Set<UInt64>) -> [AnyObject] {
        guard !ids.isEmpty else { return [] }
        defer { retiredTables = [] }
        var types = Set<ObjectIdentifier>()
        for id in ids {
            guard let record = records.removeValue(forKey: id) else { continue }
            types.insert(record.type)
            for type in record.otherTypes { types.insert(type) }
            if let owner = record.owner {
                byOwner[owner.id]?.remove(id)
                if byOwner[owner.id]?.isEmpty == true { byOwner[owner.id] = nil }
            }
        }
        var released: [AnyObject] = []
        // Changed on a copy and stored once, and only if a type's routes changed: each store
        // publishes a new table to the publishes (a rebuild of the table). Routes already stale stay so: removing more costs no publication.
        var routes = self.routes
        var changed = false
        for type in types {
            guard let table = tables[type] else { continue }
            released += table.remove(ids)
            if table.isEmpty {
                tables[type] = nil
                if let old = routes.removeValue(forKey: type) { released.append(old) }
                changed = true
            } else if routes[type] !== _busStaleRoutes,
                let old = routes.updateValue(_busStaleRoutes, forKey: type)
            {
                released.append(old)
                changed = true
            }
        }
        if changed { self.routes = routes }
        return released + retiredTables
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

    /// Adds `entry` to its event type's table and republishes that type's routes; returns
    /// the replaced routes and the tables now free, to release after unlocking.
    mutating func add<Event: BusEvent>(_ entry: _BusEntry<Event>) -> [AnyObject] {
        let type = ObjectIdentifier(Event.self)
        let table: _BusTypedTable<Event>
        if let existing = tables[type] {
            table = unsafeDowncast(existing, to: _BusTypedTable<Event>.self)
        } else {
            table = _BusTypedTable<Event>()
            tables[type] = table
        }
        table.add(entry)
        // The routes are rebuilt by the next publish of this type (`refreshRoutes`), once
        // for a whole burst of changes; a table is published only when the type turns stale.
        guard routes[type] !== _busStaleRoutes else { return [] }
        let old = routes.updateValue(_busStaleRoutes, forKey: type)
        defer { retiredTables = [] }
        return retiredTables + (old.map { [$0] } ?? [])
    }

    /// Rebuilds the routes of `type` if a change left them stale; returns them (`nil` when
    /// nobody subscribes to the type) and what the caller must release after unlocking.
    ///
    /// - Complexity: O(n log n) for the type's n subscriptions when stale, else O(1).
    mutating func refreshRoutes(_ type: ObjectIdentifier) -> (
        routes: AnyObject?, released: [AnyObject]
    ) {
        guard let current = routes[type] else { return (nil, []) }
        guard current === _busStaleRoutes, let table = tables[type] else { return (current, []) }
        let fresh = table.makeRoutes()
        routes[type] = fresh
        defer { retiredTables = [] }
        return (fresh, retiredTables)
    }
}
