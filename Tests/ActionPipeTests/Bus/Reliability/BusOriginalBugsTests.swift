import ActionPipe
import Dispatch
import Testing

/// The bugs SEMANTICS.md §5 lists for DWEventBus, each shown to be gone.
@Suite("Bus original bugs")
struct BusOriginalBugsTests {
    @Test(
        "the original deadlocks when a handler publishes on the same bus: here it returns",
        .hangBound)
    func reentrantPublishDoesNotDeadlock() {
        let bus = EventBus(name: "deadlock")
        let depth = BusTestCounter()
        bus.subscribe(busTestPings) { [unowned bus] _ in
            depth.add(1)
            // The original holds a semaphore while delivering, so this waits on itself.
            if depth.value < 5 { bus.publish(BusTestPing()) }
        }
        bus.publish(BusTestPing())
        #expect(depth.value == 5)
    }

    @Test(
        "the original races when removing while delivering: here removal is exact",
        .hangBound)
    func removalDuringDelivery() async {
        let bus = EventBus(name: "race")
        let tokens = (0..<300).map { _ in bus.subscribe(busTestPings) { _ in } }
        let removed = BusTestCounter()
        await concurrentPerform(iterations: 3) { worker in
            if worker == 0 {
                for _ in 0..<300 { bus.publish(BusTestPing()) }
            } else {
                // Both threads try to remove every token: each goes exactly once.
                for token in tokens where token.cancel() { removed.add(1) }
            }
        }
        #expect(removed.value == 300)
        #expect(bus.publish(BusTestPing()).isEmpty)
    }

    @Test("the original leaves delivery order undefined: here it is subscription order")
    func definedOrder() {
        let bus = EventBus(name: "order")
        let recorder = BusTestRecorder()
        for index in 0..<50 {
            bus.subscribe(busTestPings) { _ in recorder.record("\(index)") }
        }
        bus.publish(BusTestPing())
        #expect(recorder.all == (0..<50).map { "\($0)" })
    }
}
