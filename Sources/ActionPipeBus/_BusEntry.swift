import ActionPipeKernel
import Synchronization

/// One subscription's presence under one event type: what a publish calls.
///
/// Immutable but for `isCancelled`, so publishes read it without a lock. A union
/// subscription has one entry per event type it listens to, all with the same `id`.
@usableFromInline
final class _BusEntry<Event: BusEvent>: Sendable {
    /// The subscription's id: also its rank in delivery order (ids only grow).
    @usableFromInline let id: UInt64
    /// The exact subtype, or `nil` for "any subtype".
    @usableFromInline let subtype: Event.Subtype?
    /// The subscriber, held weakly; `nil` for a subscription kept by its token alone.
    @usableFromInline let owner: _BusOwner?
    /// Where the handler runs; `nil`: on the publisher's thread, during the publish.
    @usableFromInline let executor: BusExecutor?
    /// `executor == nil && owner == nil`: a publish calls the handler at once, with no
    /// subscriber to load. One flag, so a publish tests one byte per entry.
    @usableFromInline let isPlain: Bool
    /// The subscriber's name, for feedback.
    @usableFromInline let name: String
    /// The handler: gets the subscriber (or `nil`) and the event; returns the feedback
    /// value, or `nil` when the subscription has none to give (unions).
    @usableFromInline let handler: @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    /// Set, under the bus's lock, when the subscription is removed, so a publish already
    /// under way skips it from then on.
    @usableFromInline let isCancelled = Atomic<Bool>(false)

    init(
        id: UInt64, subtype: Event.Subtype?, owner: _BusOwner?, executor: BusExecutor?,
        name: String, handler: @escaping @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    ) {
        self.id = id
        self.subtype = subtype
        self.owner = owner
        self.executor = executor
        isPlain = executor == nil && owner == nil
        self.name = name
        self.handler = handler
    }

    /// Whether the subscriber's object is gone (never true without one).
    @usableFromInline
    var ownerIsGone: Bool {
        guard let owner else { return false }
        return owner.object == nil
    }
}

/// A subscriber held weakly, with its identity kept for removal by subscriber: the
/// kernel's weak box.
@usableFromInline
typealias _BusOwner = WeakBox<AnyObject & Sendable>

/// What became of one delivery that left the publish's inline path.
@usableFromInline
enum _BusDelivery {
    case handled, failed, scheduled
    /// The subscriber object is gone: the publish prunes its subscriptions afterwards.
    case gone
}
