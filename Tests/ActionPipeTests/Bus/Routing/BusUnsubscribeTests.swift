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

    // A regression in the next two tests deadlocks rather than fails: the time limit and
    // CI's watchdog report it.
    @Test(
        "unsubscribe(_:from:) compares subtypes with no lock held: a subtype's == may use the bus",
        .hangBound)
    func subtypeEqualityUsesTheBus() {
        let bus = EventBus(name: "reentrant-subtype")
        let probe = BusTestProbe(bus)
        let screen = BusTestSubscriber("screen")
        let first = BusTopic(
            BusTestCallingEvent.self, BusTestCallingSubtype(value: 1, probe: probe))
        let second = BusTopic(
            BusTestCallingEvent.self, BusTestCallingSubtype(value: 2, probe: probe))
        bus.subscribe(first, owner: screen) { _, _ in }
        bus.subscribe(second, owner: screen) { _, _ in }
        bus.subscribe(busTestPings, owner: screen) { _, _ in }
        bus.subscribe(allOf: [first.key, busTestLogins.key], owner: screen) { _, _ in }

        // Each comparison reads the bus's subscription count, which takes its lock.
        #expect(bus.unsubscribe(screen, from: first) == 2)  // the subscription and the union
        #expect(probe.comparisons.withLock { $0 } > 0)
        #expect(bus.unsubscribe(screen, from: first) == 0)
        #expect(bus.unsubscribe(screen, from: busTestPings) == 1)
        #expect(
            bus.unsubscribe(screen, from: BusTopic(anySubtypeOf: BusTestCallingEvent.self)) == 0)
        #expect(bus.subscriptionCount == 1)
        let event = BusTestCallingEvent(subtype: .init(value: 2, probe: probe))
        #expect(bus.publish(event).handledCount == 1)
        withExtendedLifetime(screen) {}
    }

    @Test(
        "a subtype's hash and == may use the bus: routes, sticky events and unions",
        .hangBound)
    func subtypeHashingUsesTheBus() {
        let bus = EventBus(name: "reentrant-routes")
        let probe = BusTestProbe(bus)
        func event(_ value: Int) -> BusTestCallingEvent {
            BusTestCallingEvent(subtype: .init(value: value, probe: probe))
        }
        let recorder = BusTestRecorder()
        let topics = (1...3).map {
            BusTopic(BusTestCallingEvent.self, BusTestCallingSubtype(value: $0, probe: probe))
        }
        for (index, topic) in topics.enumerated() {
            bus.subscribe(topic) { event in
                recorder.record("\(index + 1) got \(event.subtype.value)")
            }
        }
        bus.subscribe(BusTopic(anySubtypeOf: BusTestCallingEvent.self)) { event in
            recorder.record("any got \(event.subtype.value)")
        }
        let hashesBefore = probe.hashes.withLock { $0 }
        // The first publish after a change builds the type's routes, which index subtypes.
        #expect(bus.publish(event(2)).handledCount == 2)
        #expect(recorder.take() == ["2 got 2", "any got 2"])
        #expect(probe.hashes.withLock { $0 } > hashesBefore)

        // Sticky events are kept by topic: stored, replaced, replayed, read and removed.
        bus.publishSticky(event(3))
        bus.publishSticky(event(3))  // replaces it
        #expect(recorder.take() == ["3 got 3", "any got 3", "3 got 3", "any got 3"])
        bus.subscribe(topics[2]) { event in recorder.record("late got \(event.subtype.value)") }
        #expect(recorder.take() == ["late got 3"])  // one sticky event, not two
        #expect(bus.stickyEvent(for: topics[2])?.subtype.value == 3)
        #expect(bus.stickyEvent(for: topics[0]) == nil)
        #expect(bus.removeStickyEvents(for: topics[0]) == 0)
        #expect(bus.removeStickyEvents(for: topics[2]) == 1)
        #expect(bus.stickyEvent(for: topics[2]) == nil)

        // A union of two subtypes fires once both arrived.
        bus.subscribe(allOf: [topics[0].key, topics[1].key]) { union in
            recorder.record("union of \(union.events.count)")
        }
        bus.publish(event(1))
        bus.publish(event(2))
        #expect(recorder.take() == ["1 got 1", "any got 1", "2 got 2", "any got 2", "union of 2"])
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
