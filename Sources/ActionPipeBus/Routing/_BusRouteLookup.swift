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
