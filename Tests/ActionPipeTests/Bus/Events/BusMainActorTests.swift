import ActionPipe
import ActionPipeShared
import Synchronization
import Testing

/// A session event with two subtypes.
private struct MainLogin: BusEvent {
    enum Kind: Hashable, Sendable { case login, logout }
    let subtype: Kind
    let user: String
}

/// An event without subtype.
private struct MainOrder: BusEvent {
    let number: Int
}

private let logins = BusTopic(MainLogin.self, .login)
private let logouts = BusTopic(MainLogin.self, .logout)
private let orders = BusTopic(MainOrder.self)

/// A view model as an app has one: main-actor state, changed by the handlers directly (no
/// `MainActor.assumeIsolated`: that this file compiles is half of what it tests).
@MainActor
private final class BusViewModel {
    var log: [String] = []
    var count = 0
    var isCancelled = false
    var countAfterCancel = 0
}

/// Counts deinits, from a deinit that is not on the main actor.
private final class BusDeinitProbe: Sendable {
    let count = TestLock(0)
}

/// A screen that owns its subscription: `@MainActor`, so `Sendable`.
@MainActor
private final class BusScreen {
    var log: [Int] = []
    let probe: BusDeinitProbe

    init(probe: BusDeinitProbe) { self.probe = probe }

    deinit { probe.count.withLock { $0 += 1 } }
}

/// Subscribers `on: .mainActor`: `@MainActor` handlers, delivered through the one queue to
/// the main actor, in publish order.
@Suite("Bus: subscribers on the main actor (on: .mainActor)")
struct BusMainActorTests {
    @Test(
        "1,000 runs: a background login, three orders and a logout reach the view model in order"
    )
    @MainActor
    func publishOrder() async {
        let expected = ["login ann", "order 1", "order 2", "order 3", "logout ann"]
        var inOrder = 0
        for run in 0..<1_000 {
            let bus = EventBus(name: "main-\(run)")
            let model = BusViewModel()
            let bag = RegistrationBag()
            bag.insert(
                bus.subscribe(logins, on: .mainActor) { event in
                    model.log.append("login \(event.user)")
                })
            bag.insert(
                bus.subscribe(orders, on: .mainActor) { event in
                    model.log.append("order \(event.number)")
                })
            bag.insert(
                bus.subscribe(logouts, on: .mainActor) { event in
                    model.log.append("logout \(event.user)")
                })
            await Task.detached {
                bus.publish(MainLogin(subtype: .login, user: "ann"))
                for number in 1...3 { bus.publish(MainOrder(number: number)) }
                bus.publish(MainLogin(subtype: .logout, user: "ann"))
            }.value
            await _MainActorQueue.shared.idle()
            if model.log == expected { inOrder += 1 }
        }
        #expect(inOrder == 1_000)
    }

    @Test("A publish from a background task runs the handler on the main actor")
    @MainActor
    func backgroundReachesTheMainActor() async {
        let bus = EventBus(name: "main")
        let model = BusViewModel()
        let token = bus.subscribe(orders, on: .mainActor) { event in
            MainActor.assertIsolated()
            MainActor.preconditionIsolated()
            model.log.append("order \(event.number)")
        }
        _ = await Task.detached { bus.publish(MainOrder(number: 7)) }.value
        await _MainActorQueue.shared.idle()
        #expect(model.log == ["order 7"])
        token.cancel()
    }

    @Test("After cancel() on the main actor, no delivery reaches the handler")
    @MainActor
    func cancelStopsDeliveries() async {
        let bus = EventBus(name: "main")
        let model = BusViewModel()
        let token = bus.subscribe(orders, on: .mainActor) { _ in
            model.count += 1
            if model.isCancelled { model.countAfterCancel += 1 }
        }
        let publishers = (0..<4).map { _ in
            Task.detached {
                for number in 0..<2_000 { bus.publish(MainOrder(number: number)) }
            }
        }
        var waits = 0
        while model.count < 10 && waits < 5_000 {
            try? await Task.sleep(for: .milliseconds(1))
            waits += 1
        }
        token.cancel()
        model.isCancelled = true
        for publisher in publishers { await publisher.value }
        await _MainActorQueue.shared.idle()
        #expect(model.count > 0)
        #expect(model.countAfterCancel == 0)
    }

    @Test("The owner variant ends with its owner: no cycle, nothing delivered afterwards")
    @MainActor
    func ownerEndsTheSubscription() async {
        let bus = EventBus(name: "main")
        let probe = BusDeinitProbe()
        let model = BusViewModel()
        weak var weakScreen: BusScreen?
        do {
            let screen = BusScreen(probe: probe)
            weakScreen = screen
            bus.subscribe(orders, owner: screen, on: .mainActor) { screen, event in
                screen.log.append(event.number)
                model.count += 1
            }
            _ = await Task.detached { bus.publish(MainOrder(number: 1)) }.value
            await _MainActorQueue.shared.idle()
            #expect(screen.log == [1])
        }
        #expect(weakScreen == nil)
        #expect(probe.count.withLock { $0 } == 1)
        bus.publish(MainOrder(number: 2))
        _ = await Task.detached { bus.publish(MainOrder(number: 3)) }.value
        await _MainActorQueue.shared.idle()
        #expect(model.count == 1)
        #expect(bus.subscriptionCount == 0)
    }

    @Test("A publish from a background thread counts the main-actor subscriber as scheduled")
    @MainActor
    func backgroundPublishIsScheduled() async {
        let bus = EventBus(name: "main")
        let model = BusViewModel()
        let token = bus.subscribe(orders, on: .mainActor) { _ in model.count += 1 }
        let result = await Task.detached { bus.publish(MainOrder(number: 1)) }.value
        #expect(result == BusPublishResult(scheduledCount: 1))
        await _MainActorQueue.shared.idle()
        #expect(model.count == 1)
        token.cancel()
    }

    @Test(
        "A publish on the main actor with nothing queued delivers before it returns, as handled"
    )
    @MainActor
    func mainActorPublishIsHandledAtOnce() async {
        let bus = EventBus(name: "main")
        let model = BusViewModel()
        let token = bus.subscribe(orders, on: .mainActor) { _ in model.count += 1 }
        // Other tests may be using the queue at the same time: a publish that found it busy
        // is scheduled instead. Every publish is one or the other, and the counts say which.
        var atOnce = 0
        for attempt in 0..<100 {
            await _MainActorQueue.shared.idle()
            let before = model.count
            let result = bus.publish(MainOrder(number: attempt))
            #expect(result.reachedCount == 1)
            if result.handledCount == 1 {
                #expect(model.count == before + 1)
                atOnce += 1
            } else {
                #expect(result.scheduledCount == 1)
                #expect(model.count == before)
            }
        }
        await _MainActorQueue.shared.idle()
        #expect(model.count == 100)
        #expect(atOnce > 0)
        token.cancel()
    }

    @Test("Feedback: a main-actor subscriber reports handled, with no value")
    @MainActor
    func feedbackHasNoValue() async {
        let bus = EventBus(name: "main")
        let model = BusViewModel()
        let token = bus.subscribe(orders, on: .mainActor, name: "view") { _ in model.count += 1 }
        let summary = await bus.publishAndWait(MainOrder(number: 1))
        #expect(summary.reports.map(\.subscriber) == ["view"])
        #expect(model.count == 1)
        token.cancel()
    }
}
