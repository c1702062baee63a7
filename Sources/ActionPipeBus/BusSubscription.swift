/// Identifies one subscription on an ``EventBus``, so it can be cancelled.
///
/// A subscription made `by:` a subscriber object also ends by itself when that object goes
/// away; one made without a subscriber lasts until it is cancelled or the bus is gone. The
/// token holds neither the bus nor the subscriber.
///
/// ```swift
/// let subscription = bus.subscribe(BusTopic(Ping.self)) { _ in print("ping") }
/// subscription.cancel()   // true: removed
/// subscription.cancel()   // false: nothing left to remove
/// ```
public struct BusSubscription: Sendable, Hashable, CustomStringConvertible {
    let bus: _BusWeakBus
    let busID: ObjectIdentifier
    let id: UInt64
    let name: String

    init(bus: EventBus, id: UInt64, name: String) {
        self.bus = bus._handle
        busID = ObjectIdentifier(bus)
        self.id = id
        self.name = name
    }

    /// Removes the subscription if it is still there.
    ///
    /// ```swift
    /// subscription.cancel()
    /// ```
    ///
    /// - Returns: Whether a subscription was removed: `false` when it was cancelled before,
    ///   its subscriber went away, it was removed by key, or the bus is gone.
    ///
    /// - Complexity: Amortised O(1) (see ``EventBus/subscribe(_:name:on:_:)``).
    @discardableResult
    public func cancel() -> Bool {
        guard let bus = bus.value else { return false }
        return bus._remove([id]) == 1
    }

    /// Whether the subscription is still registered and its subscriber (if any) alive.
    ///
    /// ```swift
    /// if subscription.isActive { subscription.cancel() }
    /// ```
    ///
    /// - Complexity: O(1).
    public var isActive: Bool {
        guard let bus = bus.value else { return false }
        // The owner is read after unlocking (see `EventBus.subscriptionCount`).
        let record = bus._state.withLock { state in state.records[id] }
        guard let record else { return false }
        return record.owner == nil || record.owner?.object != nil
    }

    /// `bus/name#id`, for debugging.
    ///
    /// ```swift
    /// print(subscription)   // default/Screen#3
    /// ```
    public var description: String { "\(bus.name)/\(name)#\(id)" }

    /// Tokens are equal when they name the same subscription of the same bus.
    ///
    /// ```swift
    /// subscription == subscription   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id && lhs.busID == rhs.busID
    }

    /// Hashes the subscription's identity.
    ///
    /// ```swift
    /// var subscriptions: Set<BusSubscription> = [subscription]
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(busID)
    }
}

/// A bus held weakly, shared by its tokens: one per bus, made with it.
///
/// `@unchecked Sendable`: `value` is set once, by the bus's `init`, before the handle is
/// shared; a weak reference is read atomically by the runtime.
final class _BusWeakBus: @unchecked Sendable {
    weak var value: EventBus?
    let name: String

    init(name: String) {
        self.name = name
    }
}
