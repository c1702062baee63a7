import ActionPipe
import Synchronization
import Testing

extension Actions {
    fileprivate var reentryPing: Action<Int, Int> { .init() }
    fileprivate var reentryOther: Action<Int, Int> { .init() }
}

/// An object whose `deinit` calls back into the pipe that held it: registers a handler and
/// calls the pipe. If the library released it with a lock held, the process would hang.
private final class Reentrant: Sendable {
    static let released = Atomic<Int>(0)
    let pipe: ActionPipe

    init(_ pipe: ActionPipe) { self.pipe = pipe }

    deinit {
        pipe.on(\.reentryOther) { process in process.arguments }
        _ = pipe.reentryPing(1)
        _ = pipe.chainNames
        Self.released.add(1, ordering: .relaxed)
    }
}

@Suite(
    "Core: a user deinit that calls back into the pipe never runs under a library lock",
    .serialized  // the specs count releases in one shared counter
)
struct CoreDeinitReentryTests {
    static let rounds = 2_000

    @Test("Handlers replaced while another thread calls: every capture released, no hang")
    func replacedWhileCalling() async {
        let before = Reentrant.released.load(ordering: .relaxed)
        let pipe = ActionPipe(name: "reentry")
        let head = ActionPipe(name: "head")
        let finished = await runOnThreads(2, timeout: 120) { thread in
            for round in 0..<Self.rounds {
                if thread == 0 {
                    let object = Reentrant(pipe)
                    pipe.on(\.reentryPing) { process in
                        withExtendedLifetime(object) { process.arguments + 1 }
                    }
                    if round % 3 == 0 { pipe.removeHandler(for: \.reentryPing) }
                    if round % 5 == 0 {
                        _ = try? head.append(pipe)
                    } else if round % 5 == 2 {
                        _ = pipe.removeFromChain()
                    }
                } else {
                    _ = pipe.reentryPing(round)
                    _ = head.reentryPing(round)
                }
            }
        }
        #expect(finished, "a thread did not finish: a deinit ran under a lock and deadlocked")
        pipe.removeHandler(for: \.reentryPing)
        _ = pipe.removeFromChain()
        _ = pipe.reentryPing(0)
        _ = head.reentryPing(0)
        // Every object made was released: none is kept by a stale snapshot or cache.
        #expect(Reentrant.released.load(ordering: .relaxed) - before == Self.rounds)
    }

    @Test("A handler holding the last reference to another, called pipe: released unlocked")
    func capturedPipeReleased() async {
        // The inner pipe was called, so it caches a snapshot; its deinit takes the topology
        // lock to empty that cache, and the snapshot's handler holds a `Reentrant`. Each
        // replacement of the outer handler releases the last reference to an inner pipe.
        let before = Reentrant.released.load(ordering: .relaxed)
        let pipe = ActionPipe(name: "outer")
        let finished = await runOnThreads(2, timeout: 120) { thread in
            for round in 0..<Self.rounds {
                if thread == 0 {
                    let inner = ActionPipe(name: "inner")
                    let object = Reentrant(pipe)
                    inner.on(\.reentryOther) { process in
                        withExtendedLifetime(object) { process.arguments }
                    }
                    _ = inner.reentryOther(round)
                    pipe.on(\.reentryPing) { process in inner.reentryOther(process.arguments) }
                } else {
                    _ = pipe.reentryPing(round)
                }
            }
        }
        #expect(finished, "a thread did not finish: a deinit ran under a lock and deadlocked")
        pipe.removeHandler(for: \.reentryPing)
        _ = pipe.reentryPing(0)
        #expect(Reentrant.released.load(ordering: .relaxed) - before == Self.rounds)
    }
}
