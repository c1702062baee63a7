import ActionPipeConcurrency

/// One immutable snapshot of a bus's routes: (type, routes) pairs, scanned (hashed past
/// `hashedLimit`), pinned by publishes.
@usableFromInline
typealias _BusRouteTable = ReferenceBuffer<_BusRouteTableHeader, _BusRoutePair, Never>

/// An event type and its `_BusRoutes` (or the stale marker), retained by the table.
@usableFromInline
struct _BusRoutePair: ReferenceBufferElement {
    @usableFromInline let type: ObjectIdentifier
    @usableFromInline let routes: Unretained<AnyObject>

    @usableFromInline var owned: Unretained<AnyObject> { routes }
}

extension ReferenceBuffer
where Header == _BusRouteTableHeader, Element == _BusRoutePair, Tail == Never {
    @usableFromInline static var hashedLimit: Int { 16 }

    static func make(_ routes: [ObjectIdentifier: AnyObject]) -> _BusRouteTable {
        let pairs = Array(routes)
        let index =
            pairs.count > hashedLimit
            ? Dictionary(uniqueKeysWithValues: pairs.enumerated().map { ($1.key, $0) }) : nil
        return make(_BusRouteTableHeader(index: index), count: pairs.count) { append in
            for (type, routes) in pairs {
                append(_BusRoutePair(type: type, routes: Unretained(routes)))
            }
        }
    }

    /// Unretained (valid while the table lives); O(n) for n ≤ `hashedLimit` types, else O(1).
    @inlinable @inline(__always)
    func routes(for type: ObjectIdentifier) -> Unretained<AnyObject>? {
        let count = count
        if count > Self.hashedLimit { return hashedRoutes(for: type) }
        let pairs = elements
        for position in 0..<count where pairs[position].type == type {
            return pairs[position].routes
        }
        return nil
    }

    @inlinable @inline(__always)
    var staleAddress: UInt { fields.pointee.header.staleAddress }

    /// Out of line, so a publish's lookup stays small enough to inline.
    @usableFromInline @inline(never)
    func hashedRoutes(for type: ObjectIdentifier) -> Unretained<AnyObject>? {
        guard let position = fields.pointee.header.index.unsafelyUnwrapped[type] else {
            return nil
        }
        return elements[position].routes
    }

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

/// Read in place by a publish: a dictionary read as a value would be retained.
@usableFromInline
struct _BusRouteTableHeader {
    let index: [ObjectIdentifier: Int]?
    /// Kept here: the global costs a publish a call.
    @usableFromInline let staleAddress = Unretained(_busStaleRoutes).address
}

/// What a publish finds in the pinned table for its event type.
@usableFromInline
enum _BusRouteLookup<Event: BusEvent> {
    case nobody
    /// Subscriptions changed since the routes were built: the publish rebuilds them.
    case stale
    /// Unretained: the pinned table keeps them alive.
    case found(Unretained<_BusRoutes<Event>>)
}

/// The routes of a type whose subscriptions changed, until the next publish rebuilds them.
@usableFromInline
final class _BusStale: Sendable {}

@usableFromInline let _busStaleRoutes = _BusStale()
