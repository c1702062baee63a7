/// The routes of every event type a bus has subscribers for, as publishes read them: a
/// small immutable table behind a one-word lock, apart from the bus's main state.
///
/// Why apart: a publish only needs its event type's routes. Reading them from the main
/// state meant a pthread mutex and a dictionary lookup (hashing the type's identifier),
/// about half of a publish to one subscriber. Here a publish takes a compare-exchange
/// lock, scans a short array of type identifiers, and retains the routes it found.
/// Changes, which hold the main state's lock, build a new table and swap it in.
///
/// `@unchecked Sendable`: `table` is only read or replaced with `lock` held, and the
/// tables are immutable.
@usableFromInline
final class _BusPublishedRoutes: @unchecked Sendable {
    private let lock = _SpinLock()
    /// The current table, retained; replaced, never mutated.
    private var table = Unmanaged.passRetained(_BusRouteTable([:]))

    init() {}

    deinit { table.release() }

    /// The routes object of the event type `type`, retained, or `nil` when the bus has no
    /// subscriber for it.
    @usableFromInline
    func routes(for type: ObjectIdentifier) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return table._withUnsafeGuaranteedRef { $0.routes(for: type) }
    }

    /// Publishes the routes of `routes`; returns the table it replaced, for the caller to
    /// drop outside every lock (its routes may hold the last reference to handlers, whose
    /// captures run user `deinit`s).
    func replace(with routes: [ObjectIdentifier: AnyObject]) -> AnyObject {
        let new = Unmanaged.passRetained(_BusRouteTable(routes))
        lock.lock()
        let old = table
        table = new
        lock.unlock()
        return old.takeRetainedValue()
    }
}

/// One immutable snapshot of a bus's routes: event types and their routes objects, side by
/// side, searched linearly (a bus has few event types; past `hashedLimit`, hashed).
///
/// `@unchecked Sendable`: immutable, and every routes object is a `_BusRoutes<Event>`,
/// which is `Sendable`.
final class _BusRouteTable: @unchecked Sendable {
    private let types: ContiguousArray<ObjectIdentifier>
    private let objects: ContiguousArray<AnyObject>
    private let index: [ObjectIdentifier: Int]?

    /// Beyond this many event types a lookup hashes instead of scanning.
    private static let hashedLimit = 16

    init(_ routes: [ObjectIdentifier: AnyObject]) {
        var types = ContiguousArray<ObjectIdentifier>()
        var objects = ContiguousArray<AnyObject>()
        types.reserveCapacity(routes.count)
        objects.reserveCapacity(routes.count)
        for (type, object) in routes {
            types.append(type)
            objects.append(object)
        }
        self.types = types
        self.objects = objects
        index =
            routes.count > Self.hashedLimit
            ? Dictionary(uniqueKeysWithValues: types.enumerated().map { ($1, $0) }) : nil
    }

    func routes(for type: ObjectIdentifier) -> AnyObject? {
        if let index {
            return index[type].map { objects[$0] }
        }
        for position in types.indices where types[position] == type {
            return objects[position]
        }
        return nil
    }
}
