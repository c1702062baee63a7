import ActionPipe
import Testing

@Suite("Bus re-entrancy")
struct BusReentrancyTests {
    @Test(
        "a handler publishes on the same bus: delivered at once, depth first, no deadlock",
        .hangBound)
    func nestedPublish() {
        let bus = EventBus(name: "nested")
        let recorder = BusTestRecorder()
        bus.subscribe(busTestLogins) { [unowned bus] event in
            recorder.record("login \(event.user): publishes ping")
            let nested = bus.publish(BusTestPing())
            recorder.record("nested reached \(nested.reachedCount)")
        }
        bus.subscribe(busTestPings) { _ in recorder.record("ping") }
        bus.subscribe(busTestLogins) { _ in recorder.record("second login handler") }
        bus.publish(BusTestLogin(subtype: .login, user: "ann"))
        #expect(
            recorder.all == [
                "login ann: publishes ping", "ping", "nested reached 1", "second login handler",
            ])
    }

    @Test("a handler subscribes: the new subscriber gets the next event, not this one")
    func subscribeInHandler() {
        let bus = EventBus(name: "subscribeInside")
        let recorder = BusTestRecorder()
        let once = Box(false)
        bus.subscribe(busTestPings) { [unowned bus] _ in
            recorder.record("first")
            guard !once.value else { return }
            once.set(true)
            bus.subscribe(busTestPings) { _ in recorder.record("added") }
        }
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["first"])
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["first", "added"])
    }

    @Test("a handler unsubscribes itself and a later one: neither gets anything more")
    func unsubscribeInHandler() {
        let bus = EventBus(name: "unsubscribeInside")
        let recorder = BusTestRecorder()
        let screen = BusTestSubscriber("screen")
        let tokens = Box<[RegistrationToken]>([])
        let first = bus.subscribe(busTestPings) { _ in
            recorder.record("first")
            for token in tokens.value { token.cancel() }
            bus.unsubscribe(screen, from: busTestPings)
        }
        tokens.set([first])
        bus.subscribe(busTestPings, owner: screen) { _, _ in recorder.record("screen") }
        bus.subscribe(busTestPings) { _ in recorder.record("third") }
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["first", "third"])  // screen removed before its turn
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["third"])
        #expect(!first.isActive)
    }

    @Test("feedback and union handlers may use the bus too", .hangBound)
    func feedbackAndUnionReentrancy() {
        let bus = EventBus(name: "feedbackInside")
        let recorder = BusTestRecorder()
        bus.subscribe(allOf: [busTestLogins.key, busTestLogouts.key]) { [unowned bus] _ in
            recorder.record("union publishes ping")
            bus.publish(BusTestPing())
        }
        bus.subscribe(busTestPings) { _ in recorder.record("ping") }
        bus.subscribe(busTestLogins) { _ in }
        bus.publish(BusTestLogin(subtype: .logout, user: "a"))
        bus.publish(BusTestLogin(subtype: .login, user: "a")) { [unowned bus] _ in
            recorder.record("feedback publishes ping")
            bus.publish(BusTestPing())
        }
        #expect(
            recorder.all == [
                "union publishes ping", "ping", "feedback publishes ping", "ping",
                "feedback publishes ping", "ping",
            ])
    }
}
