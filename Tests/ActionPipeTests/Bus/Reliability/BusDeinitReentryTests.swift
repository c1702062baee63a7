import ActionPipe
import Synchronization
import Testing

private struct ReentryEvent: BusEvent {
    let subtype: Int
    var payload: ReentryPayload? = nil
}

/// A subscriber whose `deinit` calls back into the bus: if the bus ever dropped its last
/// reference with its lock held, the process would hang.
private final class ReentrantOwner: Sendable {
    static let released = Atomic<Int>(0)
    let bus: EventBus

    init(_ bus: EventBus) { self.bus = bus }

    deinit {
        bus.unsubscribeAll(self)
        _ = bus.subscriptionCount
        Self.released.add(1, ordering: .relaxed)
    }
}

/// An event payload whose `deinit` publishes on the bus.
private final class ReentryPayload: Sendable {
    let bus: EventBus
    init(_ bus: EventBus) { self.bus = bus }
    deinit { bus.publish(ReentryEvent(subtype: 1)) }
}

@Suite("Event bus: a user deinit that calls back into the bus never runs under its lock")
struct BusDeinitReentryTests {
    static let rounds = 20_000

    @Test("Owners released on one thread while another counts and changes subscriptions")
    func ownersReleasedWhileCounting() async {
        let bus = EventBus(name: "reentry")
        let before = ReentrantOwner.released.load(ordering: .relaxed)
        let done = Atomic<Bool>(false)
        let finished = await runOnThreads(2) { thread in
            if thread == 0 {
                for round in 0..<Self.rounds {
                    let owner = ReentrantOwner(bus)
                    bus.subscribe(BusTopic(ReentryEvent.self, 1), owner: owner) { _, _ in }
                    if round % 2 == 0 { bus.publish(ReentryEvent(subtype: 1)) }
                }
                done.store(true, ordering: .releasing)
            } else {
                // Reads every owner's weak reference, as often as it can, until the owners
                // are all made (bounded: at most 50 reads per owner).
                var reads = 0
                while !done.load(ordering: .acquiring), reads < 50 * Self.rounds {
                    _ = bus.subscriptionCount
                    if reads % 16 == 0 {
                        let token = bus.subscribe(BusTopic(ReentryEvent.self, 2)) { _ in }
                        _ = token.isActive
                        token.cancel()
                    }
                    reads += 1
                }
            }
        }
        #expect(finished, "a thread did not finish: a deinit ran under the bus's lock")
        #expect(ReentrantOwner.released.load(ordering: .relaxed) - before == Self.rounds)
    }

    @Test("An allOf union replacing an event whose payload publishes from its deinit")
    func unionReplacesReentrantEvent() async {
        let bus = EventBus(name: "union")
        let fired = Atomic<Int>(0)
        let union = bus.subscribe(
            allOf: [BusTopic(ReentryEvent.self, 1).key, BusTopic(ReentryEvent.self, 2).key]
        ) { _ in fired.add(1, ordering: .relaxed) }
        let finished = await runOnThreads(1) { _ in
            for _ in 0..<100 {
                // The second event of the same key replaces the first: its payload's deinit
                // publishes on this bus.
                bus.publish(ReentryEvent(subtype: 1, payload: ReentryPayload(bus)))
                bus.publish(ReentryEvent(subtype: 1, payload: ReentryPayload(bus)))
                bus.publish(ReentryEvent(subtype: 2))
            }
        }
        #expect(finished, "the union released a replaced event under its lock")
        #expect(fired.load(ordering: .relaxed) == 100)  // one per Beta... per subtype-2 event
        union.cancel()
    }

    @Test("A union subscription on an executor does not run once it is cancelled")
    func cancelledUnionOnExecutorDoesNotRun() {
        let bus = EventBus(name: "queued")
        let jobs = TestLock<[@Sendable () -> Void]>([])
        let executor = BusExecutor.custom { job in jobs.withLock { $0.append(job) } }
        let anyRuns = Atomic<Int>(0)
        let allRuns = Atomic<Int>(0)
        let plainRuns = Atomic<Int>(0)
        let keys = [BusTopic(ReentryEvent.self, 1).key, BusTopic(ReentryEvent.self, 2).key]
        let any = bus.subscribe(anyOf: keys, on: executor) { _ in anyRuns.add(1, ordering: .relaxed)
        }
        let all = bus.subscribe(allOf: keys, on: executor) { _ in allRuns.add(1, ordering: .relaxed)
        }
        let plain = bus.subscribe(BusTopic(ReentryEvent.self, 1), on: executor) { _ in
            plainRuns.add(1, ordering: .relaxed)
        }
        bus.publish(ReentryEvent(subtype: 1))
        bus.publish(ReentryEvent(subtype: 2))
        #expect(any.cancel())
        #expect(all.cancel())
        #expect(plain.cancel())
        // Taken out of the queue as they run: a job holds its subscription, which holds this
        // executor, which holds the queue.
        let queued = jobs.withLock { queue in
            defer { queue = [] }
            return queue
        }
        for job in queued { job() }
        #expect(anyRuns.load(ordering: .relaxed) == 0)
        #expect(allRuns.load(ordering: .relaxed) == 0)
        #expect(plainRuns.load(ordering: .relaxed) == 0)
    }
}
