import ActionPipe
import ActionPipeTesting
import Testing

@Suite("Bus lifetime")
struct BusLifetimeTests {
    @Test("A receives Login at 3 s, is released, receives nothing at 4 s (seed demo, no sleeps)")
    func seedDemo() {
        let bus = EventBus(name: "demo")
        let recorder = BusTestRecorder()
        var a: BusTestSubscriber? = BusTestSubscriber("A")
        let b = BusTestSubscriber("B")
        for subscriber in [a!, b] {
            bus.subscribe(busTestLogins, owner: subscriber) { subscriber, event in
                recorder.record("\(subscriber.name) got \(event.user)")
            }
        }
        // "3 s": both are alive.
        bus.publish(BusTestLogin(subtype: .login, user: "t=3"))
        #expect(recorder.take() == ["A got t=3", "B got t=3"])
        weak let weakA = a
        a = nil  // A is released
        #expect(weakA == nil)  // the bus did not keep it
        // "4 s": only B.
        let result = bus.publish(BusTestLogin(subtype: .login, user: "t=4"))
        #expect(recorder.take() == ["B got t=4"])
        #expect(result.handledCount == 1)
        #expect(bus.subscriptionCount == 1)
    }

    @Test("the bus holds subscribers weakly, and drops a gone subscriber's entries")
    func weakSubscribers() {
        let bus = EventBus(name: "weak")
        var subscriber: BusTestSubscriber? = BusTestSubscriber("s")
        weak let weakSubscriber = subscriber
        let subscription = bus.subscribe(busTestPings, owner: subscriber!) { _, _ in }
        #expect(subscription.isActive)
        subscriber = nil
        #expect(weakSubscriber == nil)
        #expect(!subscription.isActive)
        #expect(bus.subscriptionCount == 0)
        #expect(bus.publish(BusTestPing()).isEmpty)
        #expect(!subscription.cancel())  // nothing left to cancel
    }

    @Test("a cancelled subscription releases its handler and what it captured")
    func cancelReleasesHandler() {
        let bus = EventBus(name: "release")
        var captured: BusTestSubscriber? = BusTestSubscriber("captured")
        weak let weakCaptured = captured
        let subscription = bus.subscribe(busTestPings) { [captured] _ in _ = captured }
        captured = nil
        #expect(weakCaptured != nil)  // the handler holds it
        #expect(subscription.cancel())
        #expect(weakCaptured == nil)  // released when cancel returned
    }

    @Test("releasing the bus releases its handlers; tokens do not keep it")
    func busRelease() {
        var bus: EventBus? = EventBus(name: "gone")
        weak let weakBus = bus
        var captured: BusTestSubscriber? = BusTestSubscriber("captured")
        weak let weakCaptured = captured
        let subscription = bus!.subscribe(busTestPings) { [captured] _ in _ = captured }
        captured = nil
        bus = nil
        #expect(weakBus == nil)
        #expect(weakCaptured == nil)
        #expect(!subscription.isActive)
        #expect(!subscription.cancel())
    }

    @Test("a subscriber released by an earlier handler of the same publish is not called")
    func releasedDuringPublish() {
        let bus = EventBus(name: "inflight")
        let recorder = BusTestRecorder()
        let holder = BusTestHolder(BusTestSubscriber("late"))
        bus.subscribe(busTestPings) { _ in
            recorder.record("first releases late")
            holder.release()
        }
        bus.subscribe(busTestPings, owner: holder.object!) { subscriber, _ in
            recorder.record("\(subscriber.name) ran")
        }
        let result = bus.publish(BusTestPing())
        #expect(recorder.all == ["first releases late"])
        #expect(result.handledCount == 1)
        #expect(bus.subscriptionCount == 1)
    }

    @Test("a handler on an executor is skipped if its subscriber goes before it runs")
    func releasedBeforeExecutorRuns() {
        let bus = EventBus(name: "scheduled")
        let manual = ManualExecutor()
        let ran = Recorder<String>()
        var subscriber: BusTestSubscriber? = BusTestSubscriber("s")
        bus.subscribe(busTestPings, owner: subscriber!, on: manual.executor) { subscriber, _ in
            ran.record(subscriber.name)
        }
        #expect(bus.publish(BusTestPing()).scheduledCount == 1)
        subscriber = nil  // the event is in flight
        #expect(manual.runAll() == 1)
        #expect(ran.values == [])
    }
}

/// Holds an object strongly until told to let go, from any thread.
final class BusTestHolder: Sendable {
    private let storage: Box<BusTestSubscriber?>
    init(_ object: BusTestSubscriber) { storage = Box(object) }
    var object: BusTestSubscriber? { storage.value }
    func release() { storage.set(nil) }
}
