/// The reference model of the event bus, written from Docs/EventBusGuide.md: a plain list of
/// subscriptions in subscription order, and loops.
struct ModelBusReference {
    enum Kind: Equatable, CustomStringConvertible {
        case single(ModelBusKey)
        case allOf([ModelBusKey])
        case anyOf([ModelBusKey])

        var keys: [ModelBusKey] {
            switch self {
            case .single(let key): [key]
            case .allOf(let keys), .anyOf(let keys): keys
            }
        }

        var description: String {
            switch self {
            case .single(let key): "\(key)"
            case .allOf(let keys): "allOf \(keys)"
            case .anyOf(let keys): "anyOf \(keys)"
            }
        }
    }

    struct Subscription {
        var id: Int
        var kind: Kind
        /// The generation of the subscriber object, or `nil` for a token-only subscription.
        var owner: Int?
        var throwsError: Bool
        /// Publishes `Beta(serial + 100_000)` from inside the handler (Alpha topics only).
        var relays: Bool
        /// Cancels its own token from inside the handler, after its first delivery.
        var oneShot: Bool
        /// allOf: the latest event per key index since the union last fired.
        var received: [Int: ModelBusPublished] = [:]
    }

    /// Live subscriptions, in subscription order. A removed one, or one whose subscriber is
    /// gone, is simply not here: the guide says it receives nothing more.
    var subscriptions: [Subscription] = []

    var count: Int { subscriptions.count }

    func isActive(_ id: Int) -> Bool { subscriptions.contains { $0.id == id } }

    mutating func subscribe(_ subscription: Subscription) {
        // A union with no keys never fires and is not registered.
        guard !subscription.kind.keys.isEmpty else { return }
        var subscription = subscription
        // A key given twice counts once.
        var unique: [ModelBusKey] = []
        for key in subscription.kind.keys where !unique.contains(key) { unique.append(key) }
        switch subscription.kind {
        case .single: break
        case .allOf: subscription.kind = .allOf(unique)
        case .anyOf: subscription.kind = .anyOf(unique)
        }
        subscriptions.append(subscription)
    }

    mutating func cancel(_ id: Int) -> Bool {
        let before = subscriptions.count
        subscriptions.removeAll { $0.id == id }
        return subscriptions.count < before
    }

    /// Removes the owner's subscriptions listening to `key` (exactly), unions included.
    mutating func unsubscribe(owner: Int, from key: ModelBusKey) -> Int {
        let before = subscriptions.count
        subscriptions.removeAll { $0.owner == owner && $0.kind.keys.contains(key) }
        return before - subscriptions.count
    }

    mutating func unsubscribeAll(owner: Int) -> Int {
        let before = subscriptions.count
        subscriptions.removeAll { $0.owner == owner }
        return before - subscriptions.count
    }

    /// The subscriber went away: its subscriptions end, nobody unsubscribes them.
    mutating func release(owner: Int) {
        subscriptions.removeAll { $0.owner == owner }
    }

    /// Delivers `event` synchronously, in subscription order, depth first for events
    /// published by handlers. Returns (handled, failed) as `publish` counts them: one per
    /// matching key of each subscription (a union listens under each of its keys).
    mutating func publish(_ event: ModelBusPublished, into deliveries: inout [ModelBusDelivery])
        -> (handled: Int, failed: Int)
    {
        var handled = 0
        var failed = 0
        // Subscriptions made during this publish would not get it; removed ones would not
        // either if their turn has not come: walk the ids present now, and re-check each.
        let ids = subscriptions.map(\.id)
        for id in ids {
            guard let index = subscriptions.firstIndex(where: { $0.id == id }) else { continue }
            let subscription = subscriptions[index]
            let matching = subscription.kind.keys.indices.filter {
                subscription.kind.keys[$0].matches(event)
            }
            for keyIndex in matching {
                var delivery: ModelBusDelivery? = nil
                switch subscription.kind {
                case .single:
                    delivery = ModelBusDelivery(subscription: id, serial: event.serial)
                case .anyOf(let keys):
                    delivery = ModelBusDelivery(
                        subscription: id, serial: event.serial, lastKey: keys[keyIndex].key,
                        union: [event.serial])
                case .allOf(let keys):
                    subscriptions[index].received[keyIndex] = event
                    let received = subscriptions[index].received
                    if received.count == keys.count {
                        subscriptions[index].received = [:]
                        delivery = ModelBusDelivery(
                            subscription: id, serial: event.serial, lastKey: keys[keyIndex].key,
                            union: keys.indices.map { received[$0]!.serial })
                    }
                }
                guard let delivery else {
                    handled += 1  // the union's forwarding entry ran
                    continue
                }
                deliveries.append(delivery)
                if subscription.relays, case .alpha = event {
                    _ = publish(.beta(serial: event.serial + 100_000), into: &deliveries)
                }
                if subscription.oneShot { _ = cancel(id) }
                if subscription.throwsError { failed += 1 } else { handled += 1 }
            }
        }
        return (handled, failed)
    }
}
