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
/// between the publish's pin and its handler call). Each pair holds its routes object
/// retained, released by the table's `deinit`; a publish borrows it.
///
/// Not `Sendable` (no managed buffer can be), though shared between threads: immutable after
/// `make`, and reached only through the bus's snapshot cell and lock.
@usableFromInline
final class _BusRouteTable:
    ManagedBuffer<_BusRouteTableHeader, (type: ObjectIdentifier, routes: Unretained<AnyObject>)>
{
    /// Beyond this many event types a lookup hashes instead of scanning.
    @usableFromInline static var hashedLimit: Int { 16 }

    /// A table of `routes` (`_BusRoutes` of each type, or the stale marker).
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

    /// Releases the routes objects; runs where the bus drops a replaced table, after
    /// unlocking (freeing routes frees entries, whose handlers are the app's).
    deinit {
        withUnsafeMutablePointers { header, elements in
            for position in 0..<header.pointee.count { elements[position].routes.release() }
        }
    }

    /// The routes object of `type`, unretained (valid while the table lives), or `nil`.
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

    /// `_busStaleRoutes`'s address, kept in the header: reading the global costs a publish
    /// a call.
    ///
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    var staleAddress: UInt {
        withUnsafeMutablePointerToHeader { $0.pointee.staleAddress }
    }

    /// `routes(for:)` for many event types; out of line, so a publish's lookup stays small
    /// enough to be inlined.
    ///
    /// - Complexity: O(1) on average: one hash.
    @usableFromInline @inline(never)
    func hashedRoutes(for type: ObjectIdentifier) -> Unretained<AnyObject>? {
        guard let position = header.index.unsafelyUnwrapped[type] else { return nil }
        return withUnsafeMutablePointerToElements { $0[position].routes }
    }

    /// The routes of `Event` in `table`, unretained (valid while the table lives): what a
    /// publish walks with ``_BusRoutes/forEach(for:_:)``.
    ///
    /// - Complexity: as ``routes(for:)``.
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

/// What a ``_BusRouteTable`` keeps besides its pairs. Only plain values are read by a
/// publish, through a pointer: reading an array or a dictionary there would retain it.
@usableFromInline
struct _BusRouteTableHeader {
    /// How many event types the table holds.
    @usableFromInline let count: Int
    /// For many event types, the position of each; `nil` for few.
    let index: [ObjectIdentifier: Int]?
    /// `_busStaleRoutes`'s address, kept here: reading the global costs a publish a call.
    @usableFromInline let staleAddress = Unretained(_busStaleRoutes).address
}
