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
    /// The subscriber's name, for feedback.
    @usableFromInline let name: String
    /// The handler; its case also tells a publish whether it may call it at once (see
    /// `_BusHandler`), so a publish tests one tag per entry.
    @usableFromInline let handler: _BusHandler<Event>
    /// Set, under the bus's lock, when the subscription is removed, so a publish already
    /// under way skips it from then on.
    @usableFromInline let isCancelled = Atomic<Bool>(false)

    /// An entry whose handler gets the subscriber (or `nil`) and the event, and returns the
    /// feedback value, or `nil` when the subscription has none to give (unions).
    init(
        id: UInt64, subtype: Event.Subtype?, owner: _BusOwner?, executor: BusExecutor?,
        name: String, handler: @escaping @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    ) {
        self.id = id
        self.subtype = subtype
        self.owner = owner
        self.executor = executor
        self.name = name
        self.handler = .subscriber(handler)
    }

    /// An entry with neither subscriber object nor executor, kept by its token, whose
    /// handler is the subscriber's closure as given: a publish calls it directly.
    init(
        id: UInt64, subtype: Event.Subtype?, name: String,
        plain: @escaping @Sendable (Event) throws -> Event.Feedback
    ) {
        self.id = id
        self.subtype = subtype
        owner = nil
        executor = nil
        self.name = name
        handler = .plain(plain)
    }

    /// Calls the handler with `subscriber` (`nil` when the subscription has none) and
    /// `event`: the feedback value, or `nil` when the subscription has none to give.
    @inlinable
    func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        switch handler {
        case .plain(let handler): return try handler(event)
        case .subscriber(let handler): return try handler(subscriber, event)
        }
    }

    /// Whether the subscriber's object is gone (never true without one).
    @usableFromInline
    var ownerIsGone: Bool {
        guard let owner else { return false }
        return owner.object == nil
    }
}

/// A subscription's handler, in the form a publish calls.
@usableFromInline
enum _BusHandler<Event: BusEvent>: Sendable {
    /// A subscription with neither subscriber object nor executor, kept by its token: its
    /// closure as given, which a publish calls at once with the event alone (no adapting
    /// closure between: one call less per delivery, one allocation less per subscription).
    case plain(@Sendable (Event) throws -> Event.Feedback)
    /// Any other subscription (a subscriber object, an executor, a union's or a stream's
    /// forwarder): gets the subscriber (or `nil`) and the event; returns the feedback value,
    /// or `nil` when the subscription has none to give (unions, streams).
    case subscriber(@Sendable (AnyObject?, Event) throws -> Event.Feedback?)
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
