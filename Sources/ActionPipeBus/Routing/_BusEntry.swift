import ActionPipeConcurrency
import Synchronization

/// What every entry has whatever its event type, so a subscribe or cancel runs no generic
/// code. `@unchecked Sendable`: not final; every stored property is immutable or atomic.
@usableFromInline
class _BusSubscriptionEntry: @unchecked Sendable {
    /// Also its rank in delivery order (ids only grow).
    @usableFromInline let id: UInt64
    /// A ``_BusPlainEntry``, which a publish calls at once.
    @usableFromInline let isPlain: Bool
    /// Set on removal, so a publish under way skips it.
    @usableFromInline let isCancelled = Atomic<Bool>(false)
    @usableFromInline let name: String

    @usableFromInline
    init(id: UInt64, isPlain: Bool, name: String) {
        self.id = id
        self.isPlain = isPlain
        self.name = name
    }

    /// A `_BusRoutes` of `entries` and `more` (of this entry's event type) in id order.
    func makeRoutes(
        from entries: [UInt64: _BusSubscriptionEntry], more: [UInt64: [_BusSubscriptionEntry]]
    ) -> AnyObject { preconditionFailure("an entry has an event type") }

    var key: BusEventKey { preconditionFailure("an entry has an event type") }
}

/// One subscription under one event type. Subclasses, not an enum: a closure read as a
/// borrowed object's `let` is called unretained, one in an enum's payload is retained.
@usableFromInline
class _BusEntry<Event: BusEvent>: _BusSubscriptionEntry, @unchecked Sendable {
    /// `nil` for "any subtype".
    @usableFromInline let subtype: Event.Subtype?

    /// Inlinable: storing the subtype needs no run-time metadata lookup.
    @inlinable
    init(id: UInt64, subtype: Event.Subtype?, isPlain: Bool, name: String) {
        self.subtype = subtype
        super.init(id: id, isPlain: isPlain, name: name)
    }

    override func makeRoutes(
        from entries: [UInt64: _BusSubscriptionEntry], more: [UInt64: [_BusSubscriptionEntry]]
    ) -> AnyObject {
        var ordered: [_BusEntry<Event>] = []
        ordered.reserveCapacity(entries.count)
        for (id, first) in entries.sorted(by: { $0.key < $1.key }) {
            ordered.append(knownCast(first, to: _BusEntry<Event>.self))
            for other in more[id] ?? [] {
                ordered.append(knownCast(other, to: _BusEntry<Event>.self))
            }
        }
        return _BusRoutes.make(ordered)
    }

    /// Made when asked, not stored: a key boxes its subtype.
    override var key: BusEventKey {
        (subtype.map { BusTopic(Event.self, $0) } ?? BusTopic(anySubtypeOf: Event.self)).key
    }

    @usableFromInline
    var owner: _BusOwner? { nil }

    @usableFromInline
    var executor: BusExecutor? { nil }

    /// The feedback, or `nil` when the subscription gives none.
    @usableFromInline
    func call(_ subscriber: AnyObject?, _ event: Event) throws -> Event.Feedback? {
        preconditionFailure("an entry is plain or general")
    }

    @usableFromInline
    final var ownerIsGone: Bool { owner.map { $0.object == nil } ?? false }
}

/// A subscription kept by its token, with no executor: its closure called directly.
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

/// Any other subscription: an owner, an executor, or a union's or stream's forwarder.
@usableFromInline
final class _BusGeneralEntry<Event: BusEvent>: _BusEntry<Event>, @unchecked Sendable {
    @usableFromInline let subscriber: _BusOwner?
    /// `nil`: on the publisher's thread, during the publish.
    @usableFromInline let runsOn: BusExecutor?
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

/// What became of a delivery off the publish's inline path (`gone`: prune afterwards).
@usableFromInline
enum _BusDelivery {
    case handled, failed, scheduled, gone
}
