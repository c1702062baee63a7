/// One immutable snapshot of a bus's routes: event types and their routes objects, side by
/// side, searched linearly (a bus has few event types; past `hashedLimit`, hashed).
///
/// Publishes read the current table pinned in the bus's `SnapshotCell` (no lock, no
/// retain); a change under the bus's lock stores a new table, and the cell hands back the
/// replaced ones once no publish reads them, for release after unlocking.
///
/// `@unchecked Sendable`: immutable, and every routes object is a `_BusRoutes<Event>`,
/// which is `Sendable`.
@usableFromInline
final class _BusRouteTable: @unchecked Sendable {
    @usableFromInline let types: ContiguousArray<ObjectIdentifier>
    /// The routes, unretained: `owned` keeps them alive, and a reader does not pay a retain.
    @usableFromInline let objects: ContiguousArray<Unmanaged<AnyObject>>
    @usableFromInline let index: [ObjectIdentifier: Int]?
    /// `_busStaleRoutes`'s address, kept here: reading the global costs a publish a call.
    @usableFromInline let stale = Unmanaged.passUnretained(_busStaleRoutes).toOpaque()
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

    /// The routes object of `type`, unretained (valid while the table lives), or `nil`.
    @inlinable @inline(__always)
    func routes(for type: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        if index != nil { return hashedRoutes(for: type) }
        for position in types.indices where types[position] == type {
            return objects[position]
        }
        return nil
    }

    /// `routes(for:)` for many event types; out of line, so a publish's lookup stays small
    /// enough to be inlined.
    @usableFromInline @inline(never)
    func hashedRoutes(for type: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        index.unsafelyUnwrapped[type].map { objects[$0] }
    }

    /// The entries that get `event`, in subscription order, unretained (valid while the
    /// table lives): empty when nobody listens to its type, `nil` when the type's routes are
    /// stale.
    @inlinable @inline(__always)
    static func entries<Event: BusEvent>(in table: Unmanaged<_BusRouteTable>, for event: Event)
        -> UnsafeBufferPointer<Unmanaged<_BusEntry<Event>>>?
    {
        // Two small closures rather than one nesting the other: each is then inlined into
        // the publish, which saves it a call.
        let (routes, isStale) = table._withUnsafeGuaranteedRef { table in
            let routes = table.routes(for: ObjectIdentifier(Event.self))
            return (routes, routes?.toOpaque() == table.stale)
        }
        guard let routes else { return UnsafeBufferPointer(start: nil, count: 0) }
        if isStale { return nil }
        return routes._withUnsafeGuaranteedRef {
            unsafeDowncast($0, to: _BusRoutes<Event>.self).list(for: event.subtype)
        }
    }
}
