import ActionPipeConcurrency

/// One immutable snapshot of a bus's routes: (type, routes) pairs in a managed buffer,
/// scanned (hashed past `hashedLimit`), so a publish finds its routes in the object itself.
/// Publishes pin it in the bus's `SnapshotCell`; a change under the bus's lock stores a new
/// one, and the cell hands back replaced ones no publish reads, to release after unlocking.
/// Each pair's routes object is retained, released in `deinit`; a publish borrows it.
///
/// Not `Sendable` (a managed buffer cannot be), yet shared: immutable after `make`.
@usableFromInline
final class _BusRouteTable:
    ManagedBuffer<_BusRouteTableHeader, (type: ObjectIdentifier, routes: Unretained<AnyObject>)>
{
    @usableFromInline static var hashedLimit: Int { 16 }

    /// `_BusRoutes` of each type, or the stale marker.
    ///
    /// - Complexity: O(n) for n event types.
    static func make(_ routes: [ObjectIdentifier: AnyObject]) -> _BusRouteTable {
        let pairs = Array(routes)
        let header = _BusRouteTableHeader(
            count: pairs.count,
            index: pairs.count > hashedLimit
                ? Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1.key, $0) })
                : nil)
        let table = knownCast(
            create(minimumCapacity: pairs.count) { _ in header }, to: _BusRouteTable.self)
        table.withUnsafeMutablePointerToElements { elements in
            for (position, pair) in pairs.enumerated() {
                (elements + position).initialize(to: (pair.key, .retaining(pair.value)))
            }
        }
        return table
    }

    /// Runs after unlocking: freeing routes frees entries, whose handlers are the app's.
    deinit {
        withUnsafeMutablePointers { header, elements in
            for position in 0..<header.pointee.count { elements[position].routes.release() }
        }
    }

    /// Unretained (valid while the table lives).
    ///
    /// - Complexity: O(n) for n ≤ `hashedLimit` event types; O(1) on average beyond.
    @inlinable @inline(__always)
    func routes(for type: ObjectIdentifier) -> Unretained<AnyObject>? {
        withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            if count > Self.hashedLimit { return hashedRoutes(for: type) }
            for position in 0..<count where elements[position].type == type {
                return elements[position].routes
            }
            return nil
        }
    }

    /// Kept in the header: the global costs a publish a call.
    @inlinable @inline(__always)
    var staleAddress: UInt {
        withUnsafeMutablePointerToHeader { $0.pointee.staleAddress }
    }

    /// Out of line, so a publish's lookup stays small enough to inline.
    @usableFromInline @inline(never)
    func hashedRoutes(for type: ObjectIdentifier) -> Unretained<AnyObject>? {
        guard let position = header.index.unsafelyUnwrapped[type] else { return nil }
        return withUnsafeMutablePointerToElements { $0[position].routes }
    }

    /// Unretained (valid while the table lives): what a publish walks.
    @inlinable @inline(__always)
    static func lookup<Event: BusEvent>(_: Event.Type, in table: Unretained<_BusRouteTable>)
        -> _BusRouteLookup<Event>
    {
        let (routes, isStale) = table.with { table in
            let routes = table.routes(for: ObjectIdentifier(Event.self))
            return (routes, routes?.address == table.staleAddress)
        }
        guard let routes else { return .nobody }
        if isStale { return .stale }
        return .found(routes.as(_BusRoutes<Event>.self))
    }
}

/// Besides the pairs. A publish reads only plain values, through a pointer: an array or
/// dictionary would be retained.
@usableFromInline
struct _BusRouteTableHeader {
    @usableFromInline let count: Int
    /// Only for many event types.
    let index: [ObjectIdentifier: Int]?
    /// Kept here: the global costs a publish a call.
    @usableFromInline let staleAddress = Unretained(_busStaleRoutes).address
}
