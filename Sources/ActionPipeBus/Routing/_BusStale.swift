import ActionPipeConcurrency

/// What a route table holds for an event type whose subscriptions changed since its routes
/// were built: the next publish of that type rebuilds them (``EventBus/_refreshRoutes(_:)``).
@usableFromInline
final class _BusStale: Sendable {}

/// The one stale marker (a constant: compared by identity, never freed).
@usableFromInline let _busStaleRoutes = _BusStale()
