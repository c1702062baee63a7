import ActionPipeKernel
import Synchronization

/// The hazard records of event buses: per thread, how deeply publishes nest (a handler's
/// publish is one level deeper), and per level the route table that publish reads. A publish
/// nested deeper than `slots` reads its routes under `_BusPublishedRoutes`'s lock instead.
let _busHazards = _HazardDomain(slots: 8)

/// The routes of every event type a bus has subscribers for, as publishes read them: a
/// small immutable table, apart from the bus's main state, read without a lock.
///
/// Why apart: a publish only needs its event type's routes. Reading them from the main
/// state meant a pthread mutex and a dictionary lookup (hashing the type's identifier).
/// Why without a lock or a retain: each costs an atomic read-modify-write, and three of
/// them (lock, retain, release) were most of a publish to one subscriber. Instead a publish
/// writes the current table's address into its thread's hazard slot (`_busHazards`), checks
/// that it is still current, reads it unretained, and clears the slot. A change (which
/// holds the bus's main lock) swaps in a new table and frees the old one only when no slot
/// holds it; else the old one waits in `retired`, and the publish that clears the last slot
/// holding it, or the next change, frees it.
///
/// `@unchecked Sendable`: `current` is atomic and the tables are immutable; `retired` is
/// behind its lock.
@usableFromInline
final class _BusPublishedRoutes: @unchecked Sendable {
    /// The current table's address, retained. Replaced, never mutated.
    @usableFromInline let current: Atomic<UInt>
    /// Whether replaced tables wait in `retired` for a publish to end.
    @usableFromInline let pending = Atomic<Bool>(false)
    /// Replaced tables that a publish may still read, retained addresses.
    private let retired = LockedValue<[UInt]>([])
    /// Taken by changes, and by publishes nested too deep for a hazard slot, which read the
    /// table under it.
    private let lock = _SpinLock()
    /// The threads' publish records, copied here once (a global read from a client's
    /// specialised code costs a call to its addressor).
    @usableFromInline let hazards = _busHazards

    init() {
        current = Atomic(_BusRouteTable.retainedAddress(_BusRouteTable([:])))
    }

    deinit {
        // No publish runs: each keeps the bus, which keeps this object, alive.
        _BusRouteTable.at(current.load(ordering: .acquiring)).release()
        for address in retired.withLock({ $0 }) { _BusRouteTable.at(address).release() }
    }

    /// How many publishes deep a thread reads through hazard slots.
    @inlinable
    static var slotCount: Int { 8 }

    /// The current table, protected by `slot` (the caller's thread slot for its depth) until
    /// the caller clears the slot.
    @inlinable @inline(__always)
    func protect(_ slot: UnsafeMutablePointer<Atomic<UInt>>) -> Unmanaged<_BusRouteTable> {
        var address = current.load(ordering: .acquiring)
        while true {
            // A sequentially consistent exchange orders the store before the check below,
            // against the writer's fence between its swap and its scan: either the writer's
            // scan sees this slot, or this check sees the writer's new table. (One locked
            // instruction on the slot's own line; a separate fence locked a stack line.)
            _ = slot.pointee.exchange(address, ordering: .sequentiallyConsistent)
            let now = current.load(ordering: .sequentiallyConsistent)
            if now == address { return _BusRouteTable.at(address) }
            address = now
        }
    }

    /// The routes object of the event type `type`, retained, or `nil` when the bus has no
    /// subscriber for it. For paths that keep the routes beyond one publish (feedback) and
    /// for publishes nested too deep for a hazard slot.
    @usableFromInline
    func retainedRoutes(for type: ObjectIdentifier) -> AnyObject? {
        // Changes swap the table under this lock, and free an old one only after swapping:
        // a table read here lives until the lock is released, and the routes are retained
        // before that.
        lock.lock()
        defer { lock.unlock() }
        return _BusRouteTable.at(current.load(ordering: .acquiring))._withUnsafeGuaranteedRef {
            $0.routes(for: type)?.takeUnretainedValue()
        }
    }

    /// Publishes the routes of `routes`; returns the tables now free, for the caller to drop
    /// outside every lock (their routes may hold the last reference to handlers, whose
    /// captures run user `deinit`s). Called with the bus's main lock held.
    func replace(with routes: [ObjectIdentifier: AnyObject]) -> [AnyObject] {
        let new = _BusRouteTable.retainedAddress(_BusRouteTable(routes))
        lock.lock()
        let old = current.exchange(new, ordering: .sequentiallyConsistent)
        lock.unlock()
        return retired.withLock { retired in
            retired.append(old)
            return collect(&retired)
        }
    }

    /// Ends the read that `slot` protected; frees the retired tables no publish reads any
    /// more, if some wait.
    @inlinable @inline(__always)
    func release(_ slot: UnsafeMutablePointer<Atomic<UInt>>) {
        slot.pointee.store(0, ordering: .releasing)
        // No fence between the clear and the check: it would cost a tenth of a publish. A
        // change whose scan overlapped this clear by a few nanoseconds may leave its table
        // retired until the next publish or change on the bus; one whose scan found this
        // slot while the publish ran has set `pending` long before.
        if pending.load(ordering: .relaxed) { reclaim() }
    }

    /// Frees the retired tables no publish reads any more; called by a publish that ends
    /// while some are pending.
    @usableFromInline @inline(never)
    func reclaim() {
        let free = retired.withLock { collect(&$0) }
        withExtendedLifetime(free) {}
    }

    /// Removes and returns the retired tables no publish reads; sets `pending` while some
    /// remain.
    private func collect(_ retired: inout [UInt]) -> [AnyObject] {
        guard !retired.isEmpty else { return [] }
        // Set before the scan, so that a publish that clears its slot after the scan read it
        // is likely to see `pending` and free what this scan could not.
        pending.store(true, ordering: .relaxed)
        let free = hazards.takeUnread(&retired).map { _BusRouteTable.at($0).takeRetainedValue() }
        pending.store(!retired.isEmpty, ordering: .relaxed)
        return free
    }
}

/// One immutable snapshot of a bus's routes: event types and their routes objects, side by
/// side, searched linearly (a bus has few event types; past `hashedLimit`, hashed).
///
/// `@unchecked Sendable`: immutable, and every routes object is a `_BusRoutes<Event>`,
/// which is `Sendable`.
@usableFromInline
final class _BusRouteTable: @unchecked Sendable {
    @usableFromInline let types: ContiguousArray<ObjectIdentifier>
    /// The routes, unretained: `owned` keeps them alive, and a reader does not pay a retain.
    @usableFromInline let objects: ContiguousArray<Unmanaged<AnyObject>>
    @usableFromInline let index: [ObjectIdentifier: Int]?
    private let owned: [AnyObject]

    /// Beyond this many event types a lookup hashes instead of scanning.
    private static let hashedLimit = 16

    init(_ routes: [ObjectIdentifier: AnyObject]) {
        var types = ContiguousArray<ObjectIdentifier>()
        var objects = ContiguousArray<Unmanaged<AnyObject>>()
        types.reserveCapacity(routes.count)
        objects.reserveCapacity(routes.count)
        for (type, object) in routes {
            types.append(type)
            objects.append(.passUnretained(object))
        }
        self.types = types
        self.objects = objects
        owned = Array(routes.values)
        index =
            routes.count > Self.hashedLimit
            ? Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1, $0) }) : nil
    }

    /// A table as the retained address `_BusPublishedRoutes` stores.
    static func retainedAddress(_ table: _BusRouteTable) -> UInt {
        UInt(bitPattern: Unmanaged.passRetained(table).toOpaque())
    }

    /// The table at `address` (non-zero), unretained.
    @inlinable @inline(__always)
    static func at(_ address: UInt) -> Unmanaged<_BusRouteTable> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: address).unsafelyUnwrapped)
    }

    /// The routes object of `type`, unretained (valid while the table lives), or `nil`.
    @inlinable @inline(__always)
    func routes(for type: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        if let index {
            return index[type].map { objects[$0] }
        }
        for position in types.indices where types[position] == type {
            return objects[position]
        }
        return nil
    }
}
