import ActionPipeConcurrency
import Synchronization

/// What every entry has whatever its event type: the bus's tables add, remove and cancel
/// entries through it, so a subscribe or a cancel runs no generic code (a generic type's
/// metadata, looked up at run time, cost more than the rest of the change).
///
/// `@unchecked Sendable`: not final, so that the entries can extend it; every stored property
/// is immutable, or atomic.
@usableFromInline
class _BusSubscriptionEntry: @unchecked Sendable {
    /// The subscription's id: also its rank in delivery order (ids only grow).
    @usableFromInline let id: UInt64
    /// Whether this is a ``_BusPlainEntry``, which a publish calls at once. Stored beside
    /// `isCancelled`, and before the subclass's subtype, in what would otherwise be padding.
    @usableFromInline let isPlain: Bool
    /// Set, under the bus's lock, when the subscription is removed, so a publish already
    /// under way skips it from then on.
    @usableFromInline let isCancelled = Atomic<Bool>(false)

    @usableFromInline
    init(id: UInt64, isPlain: Bool) {
        self.id = id
        self.isPlain = isPlain
    }

    /// A table for this entry's event type; only ``_BusEntry`` makes one.
    func makeTable() -> _BusTable { preconditionFailure("an entry has an event type") }

    /// The key this entry listens to; only ``_BusEntry`` knows it.
    var key: BusEventKey { preconditionFailure("an entry has an event type") }
}

/// One subscription's presence under one event type: what a publish calls.
///
/// Immutable but for `isCancelled`, so publishes read it without a lock. A union
/// subscription has one entry per event type it listens to, all with the same `id`.
///
/// A plain subscription (kept by its token, no executor) is a ``_BusPlainEntry``: its
/// closure as given, which a publish calls directly, with no adapting closure between. Any
/// other (a subscriber object, an executor, a union's or a stream's forwarder) is a
/// ``_BusGeneralEntry``. Subclasses rather than a two-case enum: a closure read as a `let` of
/// a borrowed object is called without a retain, where one copied out of an enum's payload
/// costs a retain and a release per delivery; and rather than two optional closures: a
/// plain entry stores no owner, executor or second closure.
///
/// `@unchecked Sendable`: not final, so that the subclasses can extend it; every stored
/// property is immutable and `Sendable`, or atomic.
@usableFromInline
class _BusEntry<Event: BusEvent>: _BusSubscriptionEntry, @unchecked Sendable {
    /// The exact subtype, or `nil` for "any subtype".
    @usableFromInline let subtype: Event.Subtype?
    /// The subscriber's name, for feedback.
    @usableFromInline let name: String

    /// The part every entry shares; only the subclasses' initialisers call it. Inlinable,
    /// as theirs are: specialised where a subscribe makes the entry, the subtype is stored
    /// without looking up its type's metadata at run time.
    @inlinable
    init(id: UInt64, subtype: Event.Subtype?, isPlain: Bool, name: String) {
        self.subtype = subtype
        self.name = name
        super.init(id: id, isPlain: isPlain)
    }

    /// A table for this entry's event type, for its first subscription.
    override func makeTable() -> _BusTable { _BusTypedTable<Event>() }

    /// The key this entry listens to. Made when asked for (by `unsubscribe(_:from:)` and
    /// diagrams), not stored: a key boxes its subtype, a cost on every subscribe.
    override var key: BusEventKey {
        (subtype.map { BusTopic(Event.self, $0) } ?? BusTopic(anySubtypeOf: Event.self)).key
    }

    /// The subscriber, held weakly; `nil` for a subscription kept by its token alone (a
    /// plain entry's answer; ``_BusGeneralEntry`` gives its own). Overridden rather than
    /// read through a cast: only the paths that leave a publish's inline loop ask.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var owner: _BusOwner? { nil }

    /// Where the handler runs; `nil`: on the publisher's thread, during the publish (a plain
    /// entry's answer; ``_BusGeneralEntry`` gives its own).
    ///
    /// - Complexity: O(1).
    @usableFromInline
    var executor: BusExecutor? { nil }

    /// Calls the handler with `subscriber` (`nil` when the subscription has none) and
    /// `event`: the feedback value, or `nil` when the subscription has none to give. Each
    /// subclass calls its own closure; a publish's inline loop calls a plain entry's directly
    /// instead, one call less.
    ///
    /// - Complexity: O(1) plus the handler.
    @usableFromInline
    func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        preconditionFailure("an entry is plain or general")
    }

    /// Whether the subscriber's object is gone (never true without one).
    @usableFromInline
    final var ownerIsGone: Bool {
        guard let owner else { return false }
        return owner.object == nil
    }
}

/// A subscription kept by its token, with no executor: the subscriber's closure as given,
/// called during the publish with the event alone.
///
/// `@unchecked Sendable` as for ``_BusEntry``.
@usableFromInline
final class _BusPlainEntry<Event: BusEvent>: _BusEntry<Event>, @unchecked Sendable {
    /// The subscriber's closure: handles one event, returns its feedback.
    @usableFromInline let handler: @Sendable (Event) throws -> Event.Feedback

    /// An entry that calls `handler` with each event.
    @inlinable
    init(
        id: UInt64, subtype: Event.Subtype?, name: String,
        handler: @escaping @Sendable (Event) throws -> Event.Feedback
    ) {
        self.handler = handler
        super.init(id: id, subtype: subtype, isPlain: true, name: name)
    }

    /// Calls the closure with `event` (a plain entry has no subscriber).
    ///
    /// - Complexity: O(1) plus the handler.
    @usableFromInline
    override func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        try handler(event)
    }
}

/// Any other subscription: a subscriber object, an executor, a union's or a stream's
/// forwarder.
///
/// `@unchecked Sendable` as for ``_BusEntry``.
@usableFromInline
final class _BusGeneralEntry<Event: BusEvent>: _BusEntry<Event>, @unchecked Sendable {
    /// The subscriber, held weakly; `nil` for a subscription kept by its token alone.
    @usableFromInline let subscriber: _BusOwner?
    /// Where the handler runs; `nil`: on the publisher's thread, during the publish.
    @usableFromInline let runsOn: BusExecutor?
    /// The handler: gets the subscriber (or `nil`) and the event; returns the feedback
    /// value, or `nil` when the subscription has none to give (unions, streams).
    @usableFromInline let handler: @Sendable (AnyObject?, Event) throws -> Event.Feedback?

    /// An entry for `owner` (if any), run on `executor` (if any), that calls `handler`.
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

    /// The subscriber, held weakly, if the subscription has one.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    override var owner: _BusOwner? { subscriber }

    /// The executor the subscription named, if any.
    ///
    /// - Complexity: O(1).
    @usableFromInline
    override var executor: BusExecutor? { runsOn }

    /// Calls the handler with `subscriber` and `event`.
    ///
    /// - Complexity: O(1) plus the handler.
    @usableFromInline
    override func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        try handler(subscriber, event)
    }
}

/// A subscriber held weakly, with its identity kept for removal by subscriber: the
/// concurrency module's weak box.
@usableFromInline
typealias _BusOwner = WeakBox<AnyObject & Sendable>

/// What became of one delivery that left the publish's inline path.
@usableFromInline
enum _BusDelivery {
    case handled, failed, scheduled
    /// The subscriber object is gone: the publish prunes its subscriptions afterwards.
    case gone
}
