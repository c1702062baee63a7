import ActionPipeConcurrency

/// A route table's entry for a type whose subscriptions changed since its routes were
/// built: the next publish rebuilds them (``EventBus/_refreshRoutes(_:)``).
@usableFromInline
final class _BusStale: Sendable {}

/// A constant: compared by identity, never freed.
@usableFromInline let _busStaleRoutes = _BusStale()
