import ActionPipeConcurrency

/// An event kept for late subscribers by `EventBus.publishSticky`, with its place in the
/// order of sticky changes. Boxed, so that the code of its event type reads it back with
/// a known cast instead of a dynamic one (a type's sticky slots hold only its events).
@usableFromInline
final class _BusStickyEvent<Event: BusEvent>: Sendable {
    @usableFromInline let order: UInt64
    @usableFromInline let event: Event

    init(order: UInt64, event: Event) {
        self.order = order
        self.event = event
    }

    /// `box`, which the sticky slots of event type `Event` hold.
    @inlinable @inline(__always)
    static func unbox(_ box: any AnyObject & Sendable) -> _BusStickyEvent<Event> {
        knownCast(box, to: _BusStickyEvent<Event>.self)
    }
}

/// The sticky events of one subtype hash of one event type (equal subtypes share it, and so
/// do the rare unequal ones whose hashes collide; subtypes are compared after unlocking),
/// oldest first, with the stamp of the change that stored them: unique to that change (the
/// bus's `stickyStamp` only grows), so a change prepared with no lock held can tell whether
/// the slot changed meanwhile.
@usableFromInline
struct _BusStickyList: Sendable {
    let stamp: UInt64
    /// `_BusStickyEvent`s of the slot's event type.
    @usableFromInline let events: [any AnyObject & Sendable]
}

/// The sticky events of one event type, by their subtype's hash: computed with no lock held
/// (a subtype's hash is the app's code), so that the bus's lock only ever hashes integers.
@usableFromInline
typealias _BusStickySlots = [Int: _BusStickyList]
