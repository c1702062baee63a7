import ActionPipeConcurrency

/// What a publish finds in the pinned route table for its event type.
@usableFromInline
enum _BusRouteLookup<Event: BusEvent> {
    /// Nobody listens to the event type.
    case nobody
    /// Subscriptions changed since the routes were built: the publish rebuilds them.
    case stale
    /// Unretained: the pinned table keeps them alive.
    case found(Unretained<_BusRoutes<Event>>)
}

/// A route table's entry for a type whose subscriptions changed since its routes were
/// built: the next publish rebuilds them (``EventBus/_refreshRoutes(_:)``).
@usableFromInline
final class _BusStale: Sendable {}

/// A constant: compared by identity, never freed.
@usableFromInline let _busStaleRoutes = _BusStale()
