import ActionPipe
import Testing

private struct OwnedEvent: BusEvent {}
private let ownedEvents = BusTopic(OwnedEvent.self)

/// An owner whose release the specs watch.
private final class Owner: Sendable {
    let log: Log
    init(_ log: Log) { self.log = log }
}

/// One spelling in every part: `owner:` with `retention:`, `.weak` by default.
@Suite("Owner-bound registrations: one spelling, weak or strong, in every part")
struct OwnerRetentionTests {
    @Test("Weak (the default): the core, the bus and state stop using an owner once it is gone")
    func weakOwnersEnd() {
        let log = Log()
        var owner: Owner? = Owner(log)
        weak let watched = owner
        let pipe = ActionPipe(name: "p")
        let bus = EventBus(name: "b")
        let property = ObservedProperty(0)
        pipe.on(\.tPing).handle(owner: owner!) { owner, process in
            owner.log.append("core")
            return process.arguments
        }
        let subscription = bus.subscribe(ownedEvents, owner: owner!) { owner, _ in
            owner.log.append("bus")
        }
        let observation = property.observe(owner: owner!) { owner, _ in owner.log.append("state") }
        _ = pipe.tPing(1)
        bus.publish(OwnedEvent())
        property.value = 1
        #expect(log.take() == ["core", "bus", "state"])
        owner = nil
        #expect(watched == nil)
        #expect(pipe.tPing(1) == nil)
        bus.publish(OwnedEvent())
        property.value = 2
        #expect(log.all.isEmpty)
        #expect(!subscription.isActive)
        #expect(!observation.isActive)
    }

    @Test("Strong: the registration keeps its owner alive until it is cancelled, in every part")
    func strongOwnersLive() {
        let log = Log()
        var owner: Owner? = Owner(log)
        weak let watched = owner
        let pipe = ActionPipe(name: "p")
        let bus = EventBus(name: "b")
        let property = ObservedProperty(0)
        let tokens = [
            pipe.on(\.tPing).handle(owner: owner!, retention: .strong) { owner, process in
                owner.log.append("core")
                return process.arguments
            },
            bus.subscribe(ownedEvents, owner: owner!, retention: .strong) { owner, _ in
                owner.log.append("bus")
            },
            property.observe(owner: owner!, retention: .strong) { owner, _ in
                owner.log.append("state")
            },
        ]
        owner = nil
        #expect(watched != nil)
        _ = pipe.tPing(1)
        bus.publish(OwnedEvent())
        property.value = 1
        #expect(log.take() == ["core", "bus", "state"])
        #expect(tokens.allSatisfy { $0.isActive })
        for token in tokens { #expect(token.cancel()) }
        #expect(watched == nil)
    }

    @Test("A strongly held bus subscriber is still its subscription's owner for unsubscribeAll")
    func strongSubscriberUnsubscribes() {
        let bus = EventBus(name: "b")
        var owner: Owner? = Owner(Log())
        weak let watched = owner
        bus.subscribe(ownedEvents, owner: owner!, retention: .strong) { _, _ in }
        bus.subscribe(allOf: [ownedEvents.key], owner: owner!, retention: .strong) { _, _ in }
        #expect(bus.unsubscribeAll(owner!) == 2)
        owner = nil
        #expect(watched == nil)
        #expect(bus.subscriptionCount == 0)
    }
}
