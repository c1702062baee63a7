import ActionPipe
import ActionPipeConcurrency
import Foundation
import Testing

private struct ChurnEvent: BusEvent {}

private final class ChurnState: ObservableState, @unchecked Sendable {
    @Observed var count = 7
}

/// Short-lived threads that each call, publish and read once: what a server's thread churn
/// or a pool that retires idle threads does to the read side. Each thread's record (its
/// hazard slots and nesting counters) is handed to the next thread when it ends, so memory
/// stays flat and a writer's scan stays as short as the threads alive at once.
@Suite("Read side: thread churn", .serialized)
struct ThreadChurnTests {
    @Test(
        "20,000 short-lived threads that call, publish and read leave the records flat",
        .hangBound)
    func shortLivedThreads() async {
        let pipe = ActionPipe(name: "churn")
        pipe.on(\.tPing) { process in process.arguments + 1 }
        let bus = EventBus(name: "churn")
        let delivered = Counter()
        bus.subscribe(BusTopic(anySubtypeOf: ChurnEvent.self)) { _ in delivered.increment() }
        let state = ChurnState()
        let right = Counter()
        let before = ThreadRecord.count
        var afterFirst = 0
        // Eight at a time, one batch after another: 2,500 batches.
        for part in 0..<2 {
            let finished = await runOnThreads(1) { _ in
                for _ in 0..<1_250 {
                    let threads = (0..<8).map { _ in
                        Thread {
                            if pipe.tPing(1) == 2, state.count == 7 { right.increment() }
                            bus.publish(ChurnEvent())
                        }
                    }
                    for thread in threads { thread.start() }
                    for thread in threads { while !thread.isFinished { usleep(20) } }
                }
            }
            #expect(finished)
            if part == 0 { afterFirst = ThreadRecord.count }
        }
        #expect(right.value == 20_000)
        #expect(delivered.value == 20_000)
        // Records are reused: neither half added one per thread, and the second half (after
        // 10,000 threads had existed) added none beyond what other specs' threads took.
        #expect(afterFirst - before < 100)
        #expect(ThreadRecord.count - afterFirst < 100)
        // A change after all those threads still finds the snapshot it replaced unread.
        weak var captured: Counter?
        do {
            let object = Counter()
            captured = object
            pipe.on(\.tPing) { process in
                object.increment()
                return process.arguments
            }
            #expect(pipe.tPing(1) == 1)
        }
        pipe.on(\.tPing) { process in process.arguments }
        _ = pipe.tPing(1)
        #expect(captured == nil)
    }
}
