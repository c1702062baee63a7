/// Everything a bus knows, guarded by the bus's lock.
@usableFromInline
struct _BusState {
    /// Per event type, its subscriptions (mutable, in id order).
    var tables: [ObjectIdentifier: any _BusTable] = [:]
    /// Per event type, the routes publishes read: a `_BusRoutes<Event>`, replaced on change.
    var routes: [ObjectIdentifier: AnyObject] = [:] {
        // Every change is published to the table publishes read; the table it replaces is
        // kept until the change's caller drops what it released, outside the lock.
        didSet { retiredTables += published.replace(with: routes) }
    }
    /// What publishes read; the bus holds the same object.
    let published: _BusPublishedRoutes
    /// Tables replaced during the current change; handed out with what it released.
    var retiredTables: [AnyObject] = []
    /// Every live subscription, by id.
    var records: [UInt64: _BusRecord] = [:]
    /// The next subscription id; ids only grow, so they give subscription order.
    var nextID: UInt64 = 1

    init(published: _BusPublishedRoutes) {
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
            for key in record.keys { types.insert(key.type) }
            if let owner = record.owner {
                byOwner[owner.id]?.remove(id)
                if byOwner[owner.id]?.isEmpty == true { byOwner[owner.id] = nil }
            }
        }
        var released: [AnyObject] = []
        // Changed on a copy and stored once: each store publishes a new table to the
        // publishes (a rebuild and a scan of every thread's slots), once per change.
        var routes = self.routes
        for type in types {
            guard let table = tables[type] else { continue }
            released += table.remove(ids)
            if table.isEmpty {
                tables[type] = nil
                if let old = routes.removeValue(forKey: type) { released.append(old) }
            } else if let old = routes.updateValue(table.makeRoutes(), forKey: type) {
                released.append(old)
            }
        }
        if !types.isEmpty { self.routes = routes }
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
        table.entries.append(entry)
        let old = routes.updateValue(table.makeRoutes(), forKey: type)
        defer { retiredTables = [] }
        return retiredTables + (old.map { [$0] } ?? [])
    }
}

/// One subscription: what it listens to and who owns it, to remove it later.
struct _BusRecord {
    let keys: [BusEventKey]
    let owner: _BusOwner?
    let name: String
}

/// The subscriptions of one event type, with the event type erased.
protocol _BusTable: AnyObject {
    var isEmpty: Bool { get }
    /// Removes and cancels the entries with these ids; returns them for release.
    func remove(_ ids: Set<UInt64>) -> [AnyObject]
    func makeRoutes() -> AnyObject
}

/// The subscriptions of one event type, in id order. Touched only under the bus's lock.
final class _BusTypedTable<Event: BusEvent>: _BusTable {
    var entries: [_BusEntry<Event>] = []

    var isEmpty: Bool { entries.isEmpty }

    func remove(_ ids: Set<UInt64>) -> [AnyObject] {
        var removed: [AnyObject] = []
        entries.removeAll { entry in
            guard ids.contains(entry.id) else { return false }
            entry.isCancelled.store(true, ordering: .releasing)
            removed.append(entry)
            return true
        }
        return removed
    }

    func makeRoutes() -> AnyObject { _BusRoutes(entries) }
}
