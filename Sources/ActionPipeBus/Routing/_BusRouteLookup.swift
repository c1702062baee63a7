import ActionPipeConcurrency

/// What a publish finds for its event type in the pinned route table: nobody listens, the
/// routes are stale (a change came since they were built), or the routes, lent for as long
/// as the publish keeps the table pinned.
@usableFromInline
enum _BusRouteLookup<Event: BusEvent> {
    /// Nobody listens to the event type.
    case nobody
    /// Subscriptions changed since the routes were built: the publish rebuilds them.
    case stale
    /// The routes, unretained: the pinned table keeps them alive.
    case found(Unretained<_BusRoutes<Event>>)
}
