import ActionPipe
import Dispatch
import Testing

@Suite("Bus concurrency")
struct BusConcurrencyTests {
    @Test(
        "concurrent publish, subscribe and unsubscribe: every event to every live subscriber",
        .hangBound)
    func stress() async {
        let bus = EventBus(name: "stress")
        let counter = Box(0)
        let stable = (0..<4).map { BusTestSubscriber("stable\($0)") }
        for subscriber in stable {
            bus.subscribe(busTestPings, owner: subscriber) { _, _ in
                counter.set(counter.value)  // touches shared state under its own lock
            }
        }
        let delivered = BusTestCounter()
        bus.subscribe(busTestPings) { _ in delivered.add(1) }
        let publishes = 2_000
        await concurrentPerform(iterations: 4) { worker in
            switch worker {
            case 0, 1:
                for _ in 0..<publishes { bus.publish(BusTestPing()) }
            case 2:
                for index in 0..<500 {
                    let token = bus.subscribe(busTestPings) { _ in }
                    if index % 2 == 0 { token.cancel() }
                }
            default:
                for index in 0..<500 {
                    var owner: BusTestSubscriber? = BusTestSubscriber("churn\(index)")
                    bus.subscribe(allOf: [busTestPings.key, busTestLogins.key], owner: owner!) {
                        _, _ in
                    }
                    bus.unsubscribe(owner!, from: busTestLogins)
                    owner = nil
                }
            }
        }
        #expect(delivered.value == 2 * publishes)  // the permanent subscriber saw every one
        #expect(bus.subscriptionCount == 4 + 1 + 250)
        withExtendedLifetime(stable) {}
    }

    @Test(
        "concurrent sticky publishes and removals: one sticky event per subtype, the last one",
        .hangBound)
    func concurrentSticky() async {
        let bus = EventBus(name: "sticky-stress")
        let rounds = 400
        @Sendable func topic(_ value: Int) -> BusTopic<BusTestCollidingEvent> {
            BusTopic(BusTestCollidingEvent.self, BusTestCollidingSubtype(value: value))
        }
        // Every subtype here hashes alike, so all their sticky events share one slot: a
        // change prepared from an outdated slot would drop or duplicate another's event.
        await concurrentPerform(iterations: 4) { worker in
            for round in 0..<rounds {
                switch worker {
                case 0, 1:
                    // Each writes its own subtype, and both write subtype 3.
                    let writer = "w\(worker)-\(round)"
                    bus.publishSticky(
                        BusTestCollidingEvent(subtype: .init(value: worker), writer: writer))
                    bus.publishSticky(
                        BusTestCollidingEvent(subtype: .init(value: 3), writer: writer))
                case 2:
                    // Publishes and removes subtype 2, which the others never touch.
                    bus.publishSticky(BusTestCollidingEvent(subtype: .init(value: 2), writer: "r"))
                    #expect(bus.removeStickyEvents(for: topic(2)) == 1)
                default:
                    _ = bus.stickyEvent(for: topic(0))
                    _ = bus.stickyEvent(for: BusTopic(anySubtypeOf: BusTestCollidingEvent.self))
                }
            }
        }
        let last = rounds - 1
        #expect(bus.stickyEvent(for: topic(0))?.writer == "w0-\(last)")
        #expect(bus.stickyEvent(for: topic(1))?.writer == "w1-\(last)")
        #expect(
            ["w0-\(last)", "w1-\(last)"].contains(bus.stickyEvent(for: topic(3))?.writer ?? ""))
        #expect(bus.stickyEvent(for: topic(2)) == nil)
        // One event per subtype, no duplicate.
        #expect(
            bus.removeStickyEvents(for: BusTopic(anySubtypeOf: BusTestCollidingEvent.self)) == 3)
    }

    @Test(
        "subscribers released on other threads while publishing: no crash, then gone",
        .hangBound)
    func releaseWhilePublishing() async {
        let bus = EventBus(name: "release")
        let holders = (0..<200).map { BusTestHolder(BusTestSubscriber("s\($0)")) }
        for holder in holders {
            bus.subscribe(busTestPings, owner: holder.object!) { subscriber, _ in
                _ = subscriber.name
            }
        }
        await concurrentPerform(iterations: 2) { worker in
            if worker == 0 {
                for _ in 0..<500 { bus.publish(BusTestPing()) }
            } else {
                for holder in holders { holder.release() }
            }
        }
        #expect(bus.publish(BusTestPing()).isEmpty)
        #expect(bus.subscriptionCount == 0)
    }
}

/// A thread-safe counter.
final class BusTestCounter: Sendable {
    private let storage = TestLock(0)
    func add(_ amount: Int) { storage.withLock { $0 += amount } }
    var value: Int { storage.withLock { $0 } }
}
