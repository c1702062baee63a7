import ActionPipeConcurrency
import Synchronization

/// What every entry has whatever its event type, so a subscribe or cancel runs no generic
/// code. `@unchecked Sendable`: not final; every stored property is immutable or atomic.
@usableFromInline
class _BusSubscriptionEntry: @unchecked Sendable {
    /// Also its rank in delivery order (ids only grow).
    @usableFromInline let id: UInt64
    /// A ``_BusPlainEntry``, which a publish calls at once. Beside `isCancelled`, in padding.
    @usableFromInline let isPlain: Bool
    /// Set under the bus's lock on removal, so a publish under way skips it.
    @usableFromInline let isCancelled = Atomic<Bool>(false)
    /// For feedback and diagrams.
    @usableFromInline let name: String

    @usableFromInline
    init(id: UInt64, isPlain: Bool, name: String) {
        self.id = id
        self.isPlain = isPlain
        self.name = name
    }

    func makeTable() -> _BusTable { preconditionFailure("an entry has an event type") }

    var key: BusEventKey { preconditionFailure("an entry has an event type") }
}

/// One subscription's presence under one event type: what a publish calls. Immutable but
/// for `isCancelled`, so publishes read it without a lock; a union has one per event type.
///
/// A plain subscription (token-kept, no executor) is a ``_BusPlainEntry``, its closure
/// called directly; any other a ``_BusGeneralEntry``. Subclasses, not an enum: a closure
/// read as a borrowed object's `let` is called unretained, one copied out of an enum's
/// payload is retained per delivery. `@unchecked Sendable`: as its superclass.
@usableFromInline
class _BusEntry<Event: BusEvent>: _BusSubscriptionEntry, @unchecked Sendable {
    /// `nil` for "any subtype".
    @usableFromInline let subtype: Event.Subtype?

    /// Inlinable, as the subclasses' initialisers: storing the subtype needs no run-time
    /// metadata lookup.
    @inlinable
    init(id: UInt64, subtype: Event.Subtype?, isPlain: Bool, name: String) {
        self.subtype = subtype
        super.init(id: id, isPlain: isPlain, name: name)
    }

    override func makeTable() -> _BusTable { _BusTypedTable<Event>() }

    /// Made when asked (unsubscribing, diagrams), not stored: a key boxes its subtype.
    override var key: BusEventKey {
        (subtype.map { BusTopic(Event.self, $0) } ?? BusTopic(anySubtypeOf: Event.self)).key
    }

    /// The weakly held subscriber; `nil` for a token-kept subscription.
    @usableFromInline
    var owner: _BusOwner? { nil }

    /// `nil`: on the publisher's thread, during the publish.
    @usableFromInline
    var executor: BusExecutor? { nil }

    /// Calls the handler: the feedback, or `nil` when the subscription gives none.
    @usableFromInline
    func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        preconditionFailure("an entry is plain or general")
    }

    /// Never true without a subscriber.
    @usableFromInline
    final var ownerIsGone: Bool {
        guard let owner else { return false }
        return owner.object == nil
    }
}

/// A subscription kept by its token, with no executor, called during the publish.
@usableFromInline
final class _BusPlainEntry<Event: BusEvent>: _BusEntry<Event>, @unchecked Sendable {
    @usableFromInline let handler: @Sendable (Event) throws -> Event.Feedback

    @inlinable
    init(
        id: UInt64, subtype: Event.Subtype?, name: String,
        handler: @escaping @Sendable (Event) throws -> Event.Feedback
    ) {
        self.handler = handler
        super.init(id: id, subtype: subtype, isPlain: true, name: name)
    }

    @usableFromInline
    override func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        try handler(event)
    }
}

/// Any other subscription: a subscriber object, an executor, a union's or stream's
/// forwarder.
@usableFromInline
final class _BusGeneralEntry<Event: BusEvent>: _BusEntry<Event>, @unchecked Sendable {
    /// Held weakly; `nil` for a token-kept subscription.
    @usableFromInline let subscriber: _BusOwner?
    /// `nil`: on the publisher's thread, during the publish.
    @usableFromInline let runsOn: BusExecutor?
    /// Returns `nil` when the subscription gives no feedback (unions, streams).
    @usableFromInline let handler: @Sendable (AnyObject?, Event) throws -> Event.Feedback?

    @inlinable
    init(
        id: UInt64, subtype: Event.Subtype?, owner: _BusOwner?, executor: BusExecutor?,
        name: String, handler: @escaping @Sendable (AnyObject?, Event) throws -> Event.Feedback?
    ) {
        subscriber = owner
        runsOn = executor
        self.handler = handler
        super.init(id: id, subtype: subtype, isPlain: false, name: name)
    }

    @usableFromInline
    override var owner: _BusOwner? { subscriber }

    @usableFromInline
    override var executor: BusExecutor? { runsOn }

    @usableFromInline
    override func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        try handler(subscriber, event)
    }
}

/// A subscriber held weakly, its identity kept for removal by subscriber.
@usableFromInline
typealias _BusOwner = WeakBox<AnyObject & Sendable>

/// What became of a delivery that left the publish's inline path.
@usableFromInline
enum _BusDelivery {
    case handled, failed, scheduled
    /// The subscriber is gone: the publish prunes its subscriptions afterwards.
    case gone
}
