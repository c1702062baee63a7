import ActionPipeTesting
import Testing

@testable import ActionPipeShared

/// The one queue of deliveries to the main actor: order, the immediate path, and waiting.
@Suite("Main actor: the delivery queue")
struct MainActorQueueTests {
    @MainActor
    final class Seen {
        var values: [Int] = []
    }

    @Test("deliveries enqueued from a background task run on the main actor, in order")
    @MainActor
    func backgroundOrder() async {
        let seen = Seen()
        await Task.detached {
            for value in 0..<1_000 {
                _MainActorQueue.shared.enqueue { seen.values.append(value) }
            }
        }.value
        await _MainActorQueue.shared.idle()
        #expect(seen.values == Array(0..<1_000))
    }

    @Test("a delivery that enqueues another runs it after what was queued before")
    @MainActor
    func nestedGoesBehind() async {
        let seen = Seen()
        // Both queued from inside a delivery, so both wait behind it whatever the timing;
        // the first then queues a third, which must run after the second.
        await Task.detached {
            _MainActorQueue.shared.enqueue {
                _MainActorQueue.shared.enqueue {
                    seen.values.append(1)
                    _MainActorQueue.shared.enqueue { seen.values.append(3) }
                }
                _MainActorQueue.shared.enqueue { seen.values.append(2) }
            }
        }.value
        await _MainActorQueue.shared.idle()
        #expect(seen.values == [1, 2, 3])
    }

    @Test("idle() returns at once with nothing queued")
    func idleWhenEmpty() async {
        await _MainActorQueue.shared.idle()
        await _MainActorQueue.shared.idle()
    }
}

/// The testing library's wait for main-actor deliveries.
@Suite("Main actor: waiting for deliveries in tests")
struct MainActorDeliveriesTests {
    @MainActor
    final class MainLog {
        var entries: [String] = []
    }

    @Test("drain() returns after the deliveries queued before it, and those they queue")
    @MainActor
    func drainWaits() async {
        let log = MainLog()
        await Task.detached {
            _MainActorQueue.shared.enqueue {
                log.entries.append("first")
                _MainActorQueue.shared.enqueue { log.entries.append("caused") }
            }
        }.value
        await MainActorDeliveries.drain()
        #expect(log.entries == ["first", "caused"])
    }
}
