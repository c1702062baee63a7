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

@Suite("Core: a user deinit that calls back into the pipe never runs under a library lock")
struct CoreDeinitReentryTests {
    static let rounds = 2_000

    @Test("Handlers replaced while another thread calls: every capture released, no hang")
    func replacedWhileCalling() {
        let before = Reentrant.released.load(ordering: .relaxed)
        let pipe = ActionPipe(name: "reentry")
        let head = ActionPipe(name: "head")
        let finished = runOnThreads(2, timeout: 120) { thread in
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
}
