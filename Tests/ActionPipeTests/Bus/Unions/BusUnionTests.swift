import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Bus union events")
struct BusUnionTests {
    @Test("fires once all keys have arrived, gets the last and all, then starts over")
    func allOf() {
        let bus = EventBus(name: "union")
        let recorder = BusTestRecorder()
        let unions = Box<[BusUnion]>([])
        bus.subscribe(allOf: [busTestLogins.key, busTestPings.key]) { union in
            unions.set(unions.value + [union])
            recorder.record("fired")
        }
        bus.publish(BusTestLogin(subtype: .login, user: "ann"))
        bus.publish(BusTestLogin(subtype: .login, user: "bob"))  // a duplicate: still waiting
        #expect(recorder.all == [])
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["fired"])
        let union = try! #require(unions.value.first)
        #expect(union.last is BusTestPing)
        #expect(union.lastKey == busTestPings.key)
        #expect(union.events.count == 2)
        #expect(union.event(BusTestLogin.self)?.user == "bob")  // the latest of the key
        #expect(union.events[1] is BusTestPing)  // in the order of the keys
        #expect(union.description == "BusTestLogin + BusTestPing (last: BusTestPing.-)")

        bus.publish(BusTestPing())  // started over: a ping alone does not fire
        #expect(recorder.all == [])
        bus.publish(BusTestLogin(subtype: .login, user: "cid"))
        #expect(recorder.take() == ["fired"])
        #expect(unions.value.last?.last is BusTestLogin)
    }

    @Test("a union of one key fires on every event of it")
    func unionOfOne() {
        let bus = EventBus(name: "one")
        let recorder = BusTestRecorder()
        bus.subscribe(allOf: [busTestPings.key]) { union in
            recorder.record("fired \(union.events.count)")
        }
        bus.publish(BusTestPing())
        bus.publish(BusTestPing())
        #expect(recorder.all == ["fired 1", "fired 1"])
    }

    @Test("duplicate keys count once; a union of no keys is inactive and never fires")
    func duplicateAndEmptyKeys() {
        let bus = EventBus(name: "dup")
        let recorder = BusTestRecorder()
        bus.subscribe(allOf: [busTestPings.key, busTestPings.key]) { union in
            recorder.record("fired \(union.events.count)")
        }
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["fired 1"])

        let empty = bus.subscribe(allOf: []) { _ in recorder.record("empty") }
        #expect(!empty.isActive)
        #expect(!empty.cancel())
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["fired 1"])
    }

    @Test("any-of fires on each event of any key")
    func anyOf() {
        let bus = EventBus(name: "anyOf")
        let recorder = BusTestRecorder()
        let log = BusTestSubscriber("log")
        bus.subscribe(anyOf: [busTestLogins.key, busTestLogouts.key], owner: log) { log, union in
            recorder.record("\(log.name): \(union.lastKey) \(union.events.count)")
        }
        bus.publish(BusTestLogin(subtype: .login, user: "a"))
        bus.publish(BusTestLogin(subtype: .logout, user: "a"))
        bus.publish(BusTestPing())
        #expect(
            recorder.all == ["log: BusTestLogin.login 1", "log: BusTestLogin.logout 1"])
        withExtendedLifetime(log) {}
    }

    @Test("a union ends with its subscriber, and can run on an executor")
    func unionLifetimeAndExecutor() {
        let bus = EventBus(name: "unionLife")
        let manual = ManualExecutor()
        let recorder = BusTestRecorder()
        var screen: BusTestSubscriber? = BusTestSubscriber("screen")
        bus.subscribe(
            allOf: [busTestLogins.key, busTestPings.key], owner: screen!, on: manual.executor
        ) {
            screen, union in recorder.record("\(screen.name): \(union.events.count)")
        }
        bus.publish(BusTestLogin(subtype: .login, user: "a"))
        bus.publish(BusTestPing())
        #expect(recorder.all == [])  // not during the publish
        #expect(manual.pendingCount == 1)
        manual.runAll()
        #expect(recorder.take() == ["screen: 2"])

        screen = nil
        bus.publish(BusTestLogin(subtype: .login, user: "a"))
        bus.publish(BusTestPing())
        manual.runAll()
        #expect(recorder.all == [])
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a union job queued on an executor does nothing once its token, owner or bus is gone")
    func queuedUnionJobAfterTeardown() {
        enum Teardown: CaseIterable { case token, owner, bus }
        for teardown in Teardown.allCases {
            var bus: EventBus? = EventBus(name: "unionJob")
            weak let weakBus = bus
            let manual = ManualExecutor()
            let recorder = BusTestRecorder()
            var screen: BusTestSubscriber? = BusTestSubscriber("screen")
            let token = bus!.subscribe(
                allOf: [busTestLogins.key, busTestPings.key], owner: screen!, on: manual.executor
            ) { screen, union in recorder.record("\(screen.name): \(union.events.count)") }
            bus!.publish(BusTestLogin(subtype: .login, user: "a"))
            bus!.publish(BusTestPing())
            #expect(manual.pendingCount == 1, "\(teardown)")
            switch teardown {
            case .token: token.cancel()
            case .owner: screen = nil
            case .bus: bus = nil
            }
            manual.runAll()
            #expect(recorder.all == [], "\(teardown)")
            if teardown == .bus { #expect(weakBus == nil) }
            withExtendedLifetime((bus, screen)) {}
        }
    }
}
