import ActionPipe
import Testing

@Suite("Bus: sticky events for late subscribers", .hangBound)
struct BusStickyTests {
    private let logins = BusTopic(BusTestLogin.self, .login)

    @Test("a late subscriber receives the last sticky event at once, then live events")
    func lateSubscriberGetsTheLast() {
        let bus = EventBus(name: "sticky")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        bus.publishSticky(BusTestLogin(subtype: .login, user: "grace"))  // replaces ada
        let seen = Log()
        let token = bus.subscribe(logins) { seen.append($0.user) }
        #expect(seen.all == ["grace"])  // delivered while subscribing
        bus.publish(BusTestLogin(subtype: .login, user: "linus"))
        #expect(seen.all == ["grace", "linus"])
        #expect(bus.stickyEvent(for: logins)?.user == "grace")  // plain publish keeps nothing
        token.cancel()
    }

    @Test("plain publish keeps nothing; a sticky event reaches current subscribers too")
    func plainPublishIsNotSticky() {
        let bus = EventBus(name: "sticky")
        let early = Log()
        let token = bus.subscribe(logins) { early.append($0.user) }
        bus.publish(BusTestLogin(subtype: .login, user: "ada"))
        #expect(bus.stickyEvent(for: logins) == nil)
        let result = bus.publishSticky(BusTestLogin(subtype: .login, user: "grace"))
        #expect(result.handledCount == 1)
        #expect(early.all == ["ada", "grace"])
        token.cancel()
    }

    @Test("sticky events are kept per subtype; anySubtypeOf replays each, oldest first")
    func perSubtype() {
        let bus = EventBus(name: "sticky")
        bus.publishSticky(BusTestLogin(subtype: .logout, user: "bob"))
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        let onlyLogins = Log()
        let all = Log()
        let first = bus.subscribe(logins) { onlyLogins.append($0.user) }
        let second = bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self)) {
            all.append("\($0.subtype) \($0.user)")
        }
        #expect(onlyLogins.all == ["ada"])
        #expect(all.all == ["logout bob", "login ada"])
        first.cancel()
        second.cancel()
        // A replaced sticky event takes the newest place.
        bus.publishSticky(BusTestLogin(subtype: .logout, user: "carol"))
        let replayed = Log()
        bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self)) {
            replayed.append("\($0.subtype) \($0.user)")
        }
        #expect(replayed.all == ["login ada", "logout carol"])
    }

    @Test("each type keeps its own sticky events; subtypes whose hashes collide are told apart")
    func typesAndCollidingSubtypes() {
        let bus = EventBus(name: "sticky")
        func colliding(_ value: Int) -> BusTopic<BusTestCollidingEvent> {
            BusTopic(BusTestCollidingEvent.self, BusTestCollidingSubtype(value: value))
        }
        let anyColliding = BusTopic(anySubtypeOf: BusTestCollidingEvent.self)
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        for value in 1...3 {
            bus.publishSticky(
                BusTestCollidingEvent(subtype: .init(value: value), writer: "w\(value)"))
        }
        // Replaces w2 only, though all three subtypes hash alike.
        bus.publishSticky(BusTestCollidingEvent(subtype: .init(value: 2), writer: "v2"))
        #expect(bus.stickyEvent(for: colliding(1))?.writer == "w1")
        #expect(bus.stickyEvent(for: colliding(2))?.writer == "v2")
        #expect(bus.stickyEvent(for: colliding(4)) == nil)
        #expect(bus.stickyEvent(for: anyColliding)?.writer == "v2")  // the newest
        let replayed = Log()
        let token = bus.subscribe(anyColliding) { replayed.append($0.writer) }
        #expect(replayed.all == ["w1", "w3", "v2"])  // oldest first; no Login
        token.cancel()
        #expect(bus.removeStickyEvents(for: colliding(3)) == 1)
        #expect(bus.stickyEvent(for: colliding(1))?.writer == "w1")
        #expect(bus.removeStickyEvents(for: anyColliding) == 2)
        #expect(bus.stickyEvent(for: anyColliding) == nil)
        #expect(bus.stickyEvent(for: logins)?.user == "ada")  // another type's stays
        // A type whose sticky events were all removed keeps new ones again.
        bus.publishSticky(BusTestCollidingEvent(subtype: .init(value: 5), writer: "x"))
        #expect(bus.stickyEvent(for: anyColliding)?.writer == "x")
        #expect(bus.removeStickyEvents(for: colliding(5)) == 1)
        #expect(bus.stickyEvent(for: colliding(5)) == nil)
    }

    @Test("removeStickyEvents: later subscribers get nothing; the count says what went")
    func removal() {
        let bus = EventBus(name: "sticky")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        bus.publishSticky(BusTestLogin(subtype: .logout, user: "bob"))
        #expect(bus.removeStickyEvents(for: logins) == 1)
        #expect(bus.removeStickyEvents(for: logins) == 0)
        #expect(bus.stickyEvent(for: BusTopic(BusTestLogin.self, .logout))?.user == "bob")
        #expect(bus.removeStickyEvents(for: BusTopic(anySubtypeOf: BusTestLogin.self)) == 1)
        let seen = Log()
        let token = bus.subscribe(BusTopic(anySubtypeOf: BusTestLogin.self)) {
            seen.append($0.user)
        }
        #expect(seen.all.isEmpty)
        token.cancel()
    }

    @Test("the replay goes through the subscription's executor, like a publish")
    func replayOnExecutor() async {
        let bus = EventBus(name: "sticky")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        let (stream, continuation) = AsyncStream.makeStream(of: String.self)
        let token = bus.subscribe(logins, on: .task) { continuation.yield($0.user) }
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == "ada")
        token.cancel()
    }

    @Test("a subscriber that throws on the replay is reported to Diagnostics, not dropped")
    func replayErrorReported() {
        let bus = EventBus(name: "sticky")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "ada"))
        let recorded = Diagnostics.record {
            let token = bus.subscribe(logins) { _ in throw BusTestError(reason: "nope") }
            token.cancel()
        }
        #expect(recorded.map(\.kind) == [.handlerErrorDropped])
    }

    @Test("a replaced or removed sticky event is released, also while another thread publishes")
    func stickyEventsReleased() {
        final class Payload: Sendable {}
        struct Carrier: BusEvent { let payload: Payload }
        let bus = EventBus(name: "sticky")
        weak var first: Payload?
        do {
            let payload = Payload()
            first = payload
            bus.publishSticky(Carrier(payload: payload))
        }
        #expect(first != nil)  // kept for late subscribers
        bus.publishSticky(Carrier(payload: Payload()))
        #expect(first == nil)  // replaced: released
        bus.removeStickyEvents(for: BusTopic(Carrier.self))
        #expect(bus.stickyEvent(for: BusTopic(Carrier.self)) == nil)
    }

    @Test(
        "a sticky event whose deinit uses the bus is released unlocked, also while another thread replaces and removes"
    )
    func replacedStickyDeinitReentersTheBus() async {
        final class Reentering: Sendable {
            let bus: EventBus
            let released: Counter
            init(_ bus: EventBus, _ released: Counter) {
                self.bus = bus
                self.released = released
            }
            deinit {
                // Takes the bus's lock: released under it, this would deadlock.
                _ = bus.stickyEvent(for: BusTopic(Carrier.self))
                released.increment()
            }
        }
        struct Carrier: BusEvent { let payload: Reentering }
        let bus = EventBus(name: "sticky-reentry")
        let released = Counter()
        let rounds = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds {
                    bus.publishSticky(Carrier(payload: Reentering(bus, released)))
                }
            }
            group.addTask {
                for index in 0..<rounds {
                    if index % 4 == 0 {
                        bus.removeStickyEvents(for: BusTopic(Carrier.self))
                    } else if index % 4 == 2 {
                        bus.removeStickyEvents(for: BusTopic(anySubtypeOf: Carrier.self))
                    } else {
                        bus.publishSticky(Carrier(payload: Reentering(bus, released)))
                    }
                }
            }
        }
        bus.removeStickyEvents(for: BusTopic(Carrier.self))
        // Every payload made was released: 2,000 from the first task, 1,000 from the second.
        #expect(released.value == rounds + rounds / 2)
    }

    @Test("a pruning subscribe replays the sticky event first; a deinit's newer one follows")
    func pruneAfterReplay() {
        final class Republisher: Sendable {
            let bus: EventBus
            init(_ bus: EventBus) { self.bus = bus }
            deinit { bus.publishSticky(BusTestLogin(subtype: .login, user: "newer")) }
        }
        let bus = EventBus(name: "sticky-prune")
        bus.publishSticky(BusTestLogin(subtype: .login, user: "older"))
        // 63 subscriptions whose subscribers are gone; the 64th subscribe prunes them, and one
        // handler's capture publishes a newer sticky event as it is released.
        do {
            let republisher = Republisher(bus)
            for index in 0..<63 {
                let screen = BusTestSubscriber("screen \(index)")
                if index == 0 {
                    bus.subscribe(busTestPings, owner: screen) { _, _ in
                        withExtendedLifetime(republisher) {}
                    }
                } else {
                    bus.subscribe(busTestPings, owner: screen) { _, _ in }
                }
            }
        }
        let seen = Log()
        let token = bus.subscribe(logins) { seen.append($0.user) }
        #expect(seen.all == ["older", "newer"])
        #expect(bus.subscriptionCount == 1)  // the gone ones were pruned
        token.cancel()
    }
}
