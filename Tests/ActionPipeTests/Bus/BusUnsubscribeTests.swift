import ActionPipe
import Testing

@Suite("Bus unsubscribe")
struct BusUnsubscribeTests {
    @Test("cancelling twice: true, then false")
    func cancelTwice() {
        let bus = EventBus(name: "cancel")
        let subscription = bus.subscribe(busTestPings) { _ in }
        #expect(subscription.isActive)
        #expect(subscription.cancel())
        #expect(!subscription.cancel())
        #expect(!subscription.isActive)
        #expect(bus.publish(BusTestPing()).isEmpty)
        #expect(subscription.description.hasPrefix("cancel/subscription#"))
    }

    @Test("unsubscribing by (subscriber, type, subtype) removes only that; twice gives 0")
    func bySubscriberAndKey() {
        let bus = EventBus(name: "key")
        let recorder = BusTestRecorder()
        let screen = BusTestSubscriber("screen")
        let other = BusTestSubscriber("other")
        bus.subscribe(busTestLogins, owner: screen) { _, _ in recorder.record("screen login") }
        bus.subscribe(busTestLogouts, owner: screen) { _, _ in recorder.record("screen logout") }
        bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self), owner: screen) { _, _ in
            recorder.record("screen any")
        }
        bus.subscribe(busTestLogins, owner: other) { _, _ in recorder.record("other login") }

        #expect(bus.unsubscribe(screen, from: busTestLogins) == 1)
        #expect(bus.unsubscribe(screen, from: busTestLogins) == 0)  // twice: nothing left
        bus.publish(BusTestLogin(subtype: .login, user: "x"))
        #expect(recorder.take() == ["screen any", "other login"])  // exact key only
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        #expect(recorder.take() == ["screen logout", "screen any"])

        #expect(bus.unsubscribeAll(screen) == 2)
        #expect(bus.unsubscribeAll(screen) == 0)
        bus.publish(BusTestLogin(subtype: .login, user: "x"))
        #expect(recorder.take() == ["other login"])
        withExtendedLifetime((screen, other)) {}
    }

    @Test("removing a key also removes the union subscriptions that contain it")
    func removingKeyRemovesUnions() {
        let bus = EventBus(name: "unions")
        let recorder = BusTestRecorder()
        let screen = BusTestSubscriber("screen")
        let union = bus.subscribe(allOf: [busTestLogins.key, busTestPings.key], owner: screen) {
            _, _ in recorder.record("union")
        }
        bus.subscribe(anyOf: [busTestLogouts.key, busTestPings.key], owner: screen) { _, _ in
            recorder.record("anyOf")
        }
        #expect(bus.unsubscribe(screen, from: busTestPings) == 2)
        #expect(!union.isActive)
        bus.publish(BusTestLogin(subtype: .login, user: "x"))
        bus.publish(BusTestPing())
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        #expect(recorder.all == [])
        #expect(bus.subscriptionCount == 0)
        withExtendedLifetime(screen) {}
    }

    @Test("unsubscribing a subscriber that never subscribed, or from another bus, gives 0")
    func unknownSubscriber() {
        let bus = EventBus(name: "a")
        let other = EventBus(name: "b")
        let screen = BusTestSubscriber("screen")
        other.subscribe(busTestPings, owner: screen) { _, _ in }
        #expect(bus.unsubscribe(screen, from: busTestPings) == 0)
        #expect(bus.unsubscribeAll(screen) == 0)
        #expect(other.subscriptionCount == 1)
    }

    @Test("tokens are equal only for the same subscription of the same bus")
    func tokenIdentity() {
        let bus = EventBus(name: "tokens")
        let first = bus.subscribe(busTestPings) { _ in }
        let second = bus.subscribe(busTestPings) { _ in }
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, first, second]).count == 2)
        let otherBus = EventBus(name: "tokens")
        #expect(otherBus.subscribe(busTestPings) { _ in } != first)  // same id, other bus
    }
}
