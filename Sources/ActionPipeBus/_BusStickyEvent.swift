/// An event kept for late subscribers by `EventBus.publishSticky`, with its place in the
/// order of sticky publishes.
@usableFromInline
struct _BusStickyEvent: Sendable {
    let order: UInt64
    let event: any BusEvent
}
