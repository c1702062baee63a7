import Synchronization

/// One subscription's presence under one event type: what a publish calls.
///
/// Immutable but for `isCancelled`, so publishes read it without a lock. A union
/// subscription has one entry per event type it listens to, all with the same `id`.
final class _BusEntry<Event: BusEvent>: Sendable {
    /// The subscription's id: also its rank in delivery order (ids only grow).
    let id: UInt64
    /// The exact subtype, or `nil` for "any subtype".
    let subtype: Event.Subtype?
    /// The subscriber, held weakly; `nil` for a subscription kept by its token alone.
    let owner: _BusOwner?
    /// Where the handler runs; `nil`: on the publisher's thread, during the publish.
    let executor: BusExecutor?
    /// The subscriber's name, for feedback.
    let name: String
    /// The handler: gets the subscriber (or `nil`) and the event; returns the feedback
    /// value, or `nil` when the subscription has none to give (unions).
    let handler: @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    /// Set, under the bus's lock, when the subscription is removed, so a publish already
    /// under way skips it from then on.
    let isCancelled = Atomic<Bool>(false)

    init(
        id: UInt64, subtype: Event.Subtype?, owner: _BusOwner?, executor: BusExecutor?,
        name: String, handler: @escaping @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    ) {
        self.id = id
        self.subtype = subtype
        self.owner = owner
        self.executor = executor
        self.name = name
        self.handler = handler
    }

    /// Whether the subscriber's object is gone (never true without one).
    var ownerIsGone: Bool {
        guard let owner else { return false }
        return owner.object == nil
    }
}

/// A subscriber held weakly, with its identity kept for removal by subscriber.
final class _BusOwner: Sendable {
    weak let object: (AnyObject & Sendable)?
    let id: ObjectIdentifier

    init(_ object: AnyObject & Sendable) {
        self.object = object
        id = ObjectIdentifier(object)
    }

    /// Whether this is `object`, still alive (an id alone may be reused after a release).
    func isStill(_ candidate: AnyObject) -> Bool {
        guard let object else { return false }
        return object === candidate
    }
}
