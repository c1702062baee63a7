import ActionPipeConcurrency

/// One immutable snapshot of a bus's routes: event types and their routes objects, side by
/// side, searched linearly (a bus has few event types; past `hashedLimit`, hashed).
///
/// Publishes read the current table pinned in the bus's `SnapshotCell` (no lock, no
/// retain); a change under the bus's lock stores a new table, and the cell hands back the
/// replaced ones once no publish reads them, for release after unlocking.
///
/// A managed buffer whose elements are the (type, routes) pairs: a publish finds its routes
/// in the table object itself, not through an array stored there (one dependent load less
/// between the publish's pin and its handler call).
///
/// Not `Sendable` (no managed buffer can be), though shared between threads: immutable after
/// `make`, and reached only through the bus's snapshot cell and lock.
@usableFromInline
final class _BusRouteTable:
    ManagedBuffer<_BusRouteTableHeader, (type: ObjectIdentifier, routes: Unmanaged<AnyObject>)>
{
    /// Beyond this many event types a lookup hashes instead of scanning.
    @usableFromInline static var hashedLimit: Int { 16 }

    /// A table of `routes`.
    static func make(_ routes: [ObjectIdentifier: AnyObject]) -> _BusRouteTable {
        let pairs = routes.map { (type: $0.key, routes: Unmanaged.passUnretained($0.value)) }
        let header = _BusRouteTableHeader(
            count: pairs.count,
            index: pairs.count > hashedLimit
                ? Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1.type, $0) })
                : nil,
            owned: Array(routes.values))
        let table = unsafeDowncast(
            create(minimumCapacity: pairs.count) { _ in header }, to: _BusRouteTable.self)
        table.withUnsafeMutablePointerToElements { elements in
            elements.initialize(from: pairs, count: pairs.count)
        }
        return table
    }

    /// The routes object of `type`, unretained (valid while the table lives), or `nil`.
    @inlinable @inline(__always)
    func routes(for type: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            if count > Self.hashedLimit { return hashedRoutes(for: type) }
            for position in 0..<count where elements[position].type == type {
                return elements[position].routes
            }
            return nil
        }
    }

    /// `_busStaleRoutes`'s address, kept in the header: reading the global costs a publish
    /// a call.
    @inlinable @inline(__always)
    var stale: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToHeader { $0.pointee.stale }
    }

    /// `routes(for:)` for many event types; out of line, so a publish's lookup stays small
    /// enough to be inlined.
    @usableFromInline @inline(never)
    func hashedRoutes(for type: ObjectIdentifier) -> Unmanaged<AnyObject>? {
        guard let position = header.index.unsafelyUnwrapped[type] else { return nil }
        return withUnsafeMutablePointerToElements { $0[position].routes }
    }

    /// The entries that get `event`, in subscription order, unretained (valid while the
    /// table lives): empty when nobody listens to its type, `nil` when the type's routes are
    /// stale.
    @inlinable @inline(__always)
    static func entries<Event: BusEvent>(in table: Unretained<_BusRouteTable>, for event: Event)
        -> UnsafeBufferPointer<Unmanaged<_BusEntry<Event>>>?
    {
        // Two small closures rather than one nesting the other: each is then inlined into
        // the publish, which saves it a call.
        let (routes, isStale) = table.with { table in
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

/// What a ``_BusRouteTable`` keeps besides its pairs. Only plain values are read by a
/// publish, through a pointer: reading an array or a dictionary there would retain it.
@usableFromInline
struct _BusRouteTableHeader {
    /// How many event types the table holds.
    @usableFromInline let count: Int
    /// For many event types, the position of each; `nil` for few.
    let index: [ObjectIdentifier: Int]?
    /// `_busStaleRoutes`'s address, kept here: reading the global costs a publish a call.
    @usableFromInline let stale = Unmanaged.passUnretained(_busStaleRoutes).toOpaque()
    /// The routes objects, which the unretained pairs point to: kept alive with the table.
    let owned: [AnyObject]
}
