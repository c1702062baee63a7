import ActionPipe
import Testing

/// A captured object whose `deinit` calls back into the bus: a cancel that released it with
/// the bus's lock held would hang.
private final class CancelReentrantCapture: Sendable {
    let bus: EventBus
    init(_ bus: EventBus) { self.bus = bus }
    deinit {
        _ = bus.subscriptionCount
        bus.subscribe(busTestPings) { _ in }.cancel()
    }
}

@Suite("Bus cancel: a token's cancel removes exactly its subscription")
struct BusCancelTests {
    @Test("an anyOf subscription over several types and subtypes goes from every key at once")
    func unionOverSeveralTypes() {
        let bus = EventBus(name: "union")
        let recorder = BusTestRecorder()
        let keys = [busTestLogins.key, busTestLogouts.key, busTestPings.key]
        let union = bus.subscribe(anyOf: keys) { _ in recorder.record("union") }
        let other = bus.subscribe(busTestLogins) { _ in recorder.record("other") }
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        #expect(recorder.take() == ["union"])

        #expect(union.cancel())
        #expect(!union.isActive)
        #expect(!union.cancel())  // twice: nothing left
        bus.publish(BusTestLogin(subtype: .login, user: "x"))
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["other"])
        #expect(bus.subscriptionCount == 1)
        #expect(other.cancel())
        #expect(bus.subscriptionCount == 0)
    }

    @Test("an owned union's cancel releases its forwarders, and leaves the owner nothing")
    func ownedUnion() {
        let bus = EventBus(name: "owned")
        let recorder = BusTestRecorder()
        let screen = BusTestSubscriber("screen")
        let union = bus.subscribe(allOf: [busTestLogins.key, busTestPings.key], owner: screen) {
            _, _ in recorder.record("union")
        }
        let single = bus.subscribe(busTestLogouts, owner: screen) { _, _ in
            recorder.record("logout")
        }
        #expect(union.cancel())
        bus.publish(BusTestLogin(subtype: .login, user: "x"))
        bus.publish(BusTestPing())
        bus.publish(BusTestLogin(subtype: .logout, user: "x"))
        #expect(recorder.take() == ["logout"])
        #expect(bus.unsubscribe(screen, from: busTestPings) == 0)  // the union is gone
        #expect(single.cancel())
        #expect(bus.unsubscribeAll(screen) == 0)  // and so is the single one
        withExtendedLifetime(screen) {}
    }

    @Test("cancelling a subscription whose subscriber has gone removes it and returns false")
    func ownerGone() {
        let bus = EventBus(name: "gone")
        var screen: BusTestSubscriber? = BusTestSubscriber("screen")
        let subscription = bus.subscribe(busTestPings, owner: screen!) { _, _ in }
        screen = nil
        #expect(!subscription.cancel())  // registered, but its subscriber is gone
        #expect(!subscription.cancel())
        #expect(bus.subscriptionCount == 0)
    }

    @Test("a strongly held subscriber is kept until the cancel, and released by it")
    func strongOwner() {
        let bus = EventBus(name: "strong")
        var screen: BusTestSubscriber? = BusTestSubscriber("screen")
        weak let weakScreen = screen
        let subscription = bus.subscribe(busTestPings, owner: screen!, retention: .strong) {
            _, _ in
        }
        screen = nil
        #expect(weakScreen != nil)
        #expect(subscription.cancel())
        #expect(weakScreen == nil)
    }

    @Test("a handler cancels a later subscription, and its own, during a publish")
    func cancelDuringPublish() {
        let bus = EventBus(name: "during")
        let recorder = BusTestRecorder()
        let later = TestLock<RegistrationToken?>(nil)
        let own = TestLock<RegistrationToken?>(nil)
        let first = bus.subscribe(busTestPings) { _ in
            recorder.record("first")
            let token = later.withLock { $0 }
            recorder.record("later cancelled: \(token?.cancel() ?? false)")
            recorder.record("own cancelled: \(own.withLock { $0 }?.cancel() ?? false)")
        }
        own.withLock { $0 = first }
        later.withLock { $0 = bus.subscribe(busTestPings) { _ in recorder.record("later") } }
        let result = bus.publish(BusTestPing())
        #expect(recorder.take() == ["first", "later cancelled: true", "own cancelled: true"])
        #expect(result.handledCount == 1)
        #expect(bus.publish(BusTestPing()).isEmpty)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("cancels before and after a publish rebuilt the routes; the type then starts anew")
    func cancelAroundPublishes() {
        let bus = EventBus(name: "routes")
        let recorder = BusTestRecorder()
        let tokens = (0..<4).map { index in
            bus.subscribe(busTestPings) { _ in recorder.record("\(index)") }
        }
        #expect(tokens[0].cancel())  // routes stale: not yet built
        #expect(bus.publish(BusTestPing()).handledCount == 3)
        #expect(tokens[2].cancel())  // routes built: marked stale again
        #expect(tokens[1].cancel())
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["1", "2", "3", "3"])
        #expect(tokens[3].cancel())  // the last one: the type has no table left
        #expect(bus.publish(BusTestPing()).isEmpty)
        let again = bus.subscribe(busTestPings) { _ in recorder.record("again") }
        bus.publish(BusTestPing())
        #expect(recorder.take() == ["again"])
        #expect(again.cancel())
    }

    @Test("what a cancel releases is released after unlocking: a deinit may use the bus")
    func releaseAfterUnlocking() {
        let bus = EventBus(name: "reentry")
        var capture: CancelReentrantCapture? = CancelReentrantCapture(bus)
        weak let weakCapture = capture
        let plain = bus.subscribe(busTestPings) { [capture] _ in _ = capture }
        let union = bus.subscribe(anyOf: [busTestLogins.key, busTestPings.key]) { [capture] _ in
            _ = capture
        }
        capture = nil
        #expect(plain.cancel())
        #expect(weakCapture != nil)  // the union still holds it
        #expect(union.cancel())
        #expect(weakCapture == nil)
        #expect(bus.subscriptionCount == 0)
    }
}
