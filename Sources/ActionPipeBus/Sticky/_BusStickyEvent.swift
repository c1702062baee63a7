import ActionPipeConcurrency

/// An event kept by `EventBus.publishSticky`, with its place in the order of sticky
/// changes. Boxed, so its type's code reads it back with a known cast, not a dynamic one.
@usableFromInline
final class _BusStickyEvent<Event: BusEvent>: Sendable {
    @usableFromInline let order: UInt64
    @usableFromInline let event: Event

    init(order: UInt64, event: Event) {
        self.order = order
        self.event = event
    }

    @inlinable @inline(__always)
    static func unbox(_ box: any AnyObject & Sendable) -> _BusStickyEvent<Event> {
        knownCast(box, to: _BusStickyEvent<Event>.self)
    }
}

/// The sticky events of one subtype hash of one event type (colliding subtypes share it;
/// subtypes are compared unlocked), oldest first, with the unique stamp of the change that
/// stored them, so a change prepared unlocked can tell whether the slot changed meanwhile.
@usableFromInline
struct _BusStickyList: Sendable {
    let stamp: UInt64
    @usableFromInline let events: [any AnyObject & Sendable]
}

/// By subtype hash, computed unlocked (app code), so the bus's lock only hashes integers.
@usableFromInline
typealias _BusStickySlots = [Int: _BusStickyList]
