import ActionPipe
import Dispatch
import Synchronization
import Testing

/// Publishes read their routes without a lock or a retain, pinned in the bus's snapshot
/// cell; a change frees a replaced route table only when no publish reads it. These specs pin
/// what that must keep: nothing a publish reads is freed under it, and what a cancelled
/// subscription captured is still released, at the latest when the last publish reading it
/// ends.
@Suite("Bus pinned routes")
struct BusRouteReclaimTests {
    @Test(
        "subscriptions cancelled while another thread delivers to them are released when that delivery ends",
        .hangBound)
    func releasedWhenTheDeliveryEnds() throws {
        let bus = EventBus(name: "hazard")
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let recorder = BusTestRecorder()
        var first: BusTestSubscriber? = BusTestSubscriber("first")
        var second: BusTestSubscriber? = BusTestSubscriber("second")
        weak let weakFirst = first
        weak let weakSecond = second
        let blocking = bus.subscribe(busTestPings) { [first] _ in
            _ = first
            entered.signal()
            _ = proceed.wait(timeout: .now() + 30)
        }
        // Only the routes the delivery reads keep this one alive while the first blocks (the
        // delivery holds no reference to it).
        let later = bus.subscribe(busTestPings) { [second] _ in
            recorder.record("second ran: \(second!.name)")
        }
        first = nil
        second = nil
        DispatchQueue.global().async {
            bus.publish(BusTestPing())
            finished.signal()
        }
        try #require(entered.wait(timeout: .now() + 30) == .success)
        #expect(blocking.cancel())
        #expect(later.cancel())
        #expect(weakSecond != nil)  // the delivery under way still reads the old routes
        proceed.signal()
        try #require(finished.wait(timeout: .now() + 30) == .success)
        #expect(recorder.take() == [])  // cancelled before its turn
        // Freed by the publish that read them last (or by another spec's store that found
        // them unread first, as it returns).
        #expect(settles { weakFirst == nil && weakSecond == nil })
        #expect(bus.publish(BusTestPing()).isEmpty)
    }

    @Test(
        "subscriptions made and cancelled while other threads publish: handlers only run on live captures, and all are released",
        .hangBound)
    func churnWhilePublishing() async {
        let bus = EventBus(name: "churn")
        let released = BusTestCounter()
        let deadCalls = BusTestCounter()
        let rounds = 2_000
        await concurrentPerform(iterations: 3) { worker in
            if worker < 2 {
                for _ in 0..<(rounds * 2) { bus.publish(BusTestPing()) }
                return
            }
            for _ in 0..<rounds {
                let witness = BusTestWitness(onDeinit: { released.add(1) })
                let subscription = bus.subscribe(busTestPings) { [witness] _ in
                    if !witness.isAlive { deadCalls.add(1) }
                }
                subscription.cancel()
            }
        }
        // A change that raced with a publish's end may leave its table retired until the
        // next publish on the bus.
        bus.publish(BusTestPing())
        #expect(deadCalls.value == 0)
        #expect(released.value == rounds)
        #expect(bus.subscriptionCount == 0)
    }

    @Test(
        "publishes nested deeply still deliver, see changes, and release",
        .hangBound)
    func nestedBeyondTheSlots() {
        let bus = EventBus(name: "deep")
        let other = EventBus(name: "other")
        let recorder = BusTestRecorder()
        var captured: BusTestSubscriber? = BusTestSubscriber("captured")
        weak let weakCaptured = captured
        let watcher = bus.subscribe(busTestLogouts) { [captured] event in
            _ = captured
            recorder.record("watcher saw \(event.user)")
        }
        captured = nil
        // Each level publishes the next, alternating between two buses (the slots are per
        // thread, shared by every bus), 20 levels deep; level 15 cancels the watcher.
        let depth = Box(0)
        let nextLevel: @Sendable (Int) -> Void = { level in
            guard level < 20 else { return }
            let bus = level.isMultiple(of: 2) ? bus : other
            bus.publish(BusTestLogin(subtype: .login, user: "\(level + 1)"))
        }
        for target in [bus, other] {
            target.subscribe(busTestLogins) { event in
                let level = Int(event.user)!
                depth.set(max(depth.value, level))
                if level == 15 { watcher.cancel() }
                if level.isMultiple(of: 5) {
                    bus.publish(BusTestLogin(subtype: .logout, user: "\(level)"))
                }
                nextLevel(level)
            }
        }
        bus.publish(BusTestLogin(subtype: .login, user: "1"))
        #expect(depth.value == 20)
        // Level 15 cancelled the watcher before its own logout: 5 and 10 reached it.
        #expect(recorder.take() == ["watcher saw 5", "watcher saw 10"])
        #expect(settles { weakCaptured == nil })
    }
}

/// An object that knows whether it is still alive, and says when it goes.
final class BusTestWitness: Sendable {
    private let alive = Atomic<Bool>(true)
    private let onDeinit: @Sendable () -> Void

    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }

    var isAlive: Bool { alive.load(ordering: .acquiring) }

    deinit {
        alive.store(false, ordering: .releasing)
        onDeinit()
    }
}
