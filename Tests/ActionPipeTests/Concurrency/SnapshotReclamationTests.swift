import ActionPipe
import Foundation
import Synchronization
import Testing

/// An object that counts how many of its kind are alive.
private final class Counted: Sendable {
    static let alive = Atomic<Int>(0)
    let value: Int
    init(_ value: Int) {
        self.value = value
        Self.alive.add(1, ordering: .sequentiallyConsistent)
    }
    deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
}

/// A change replaces a chain's snapshot while calls may still be running on the old one.
/// These specs race readers against writers and check both halves: nothing is released
/// under a running call, and everything replaced is released in the end.
@Suite("Snapshot reclamation", .serialized)
struct SnapshotReclamationTests {
    @Test("Calls racing handler replacement see a whole handler, and replaced ones are freed")
    func callsRaceReplacement() async throws {
        let pipes = try makeChain("a", "b")
        pipes[0].on(\.tPing) { process in process.arguments + 1 }
        pipes[1].on(\.tPing) { process in (process.upstream ?? 0) + 1 }
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        let wrong = Counter()
        let calls = Counter()
        let finished = await runOnThreads(3) { index in
            if index == 0 {
                // The writer: replace b's handler, each capturing a fresh object.
                for round in 0..<2_000 {
                    let counted = Counted(round)
                    pipes[1].on(\.tPing) { process in
                        (process.upstream ?? 0) + counted.value - counted.value + 1
                    }
                }
            } else {
                // Readers, a fixed number of calls each (counted, not timed): every call must
                // see both handlers' whole effect.
                for _ in 0..<2_000 {
                    if pipes[0].tPing(0) != 2 { wrong.increment() }
                    calls.increment()
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(calls.value == 2 * 2_000)
        // Only the handler registered last is still alive (no call is running now).
        pipes[0].on(\.tOther) { _ in 0 }  // a change, which also reclaims
        #expect(Counted.alive.load(ordering: .sequentiallyConsistent) == baseline + 1)
        pipes[1].removeHandler(for: \.tPing)
        #expect(Counted.alive.load(ordering: .sequentiallyConsistent) == baseline)
    }

    @Test("A snapshot replaced under a running call lives until that call returns")
    func replacedUnderARunningCall() throws {
        let pipe = ActionPipe(name: "p")
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        let observed = Box<[Int]>([])
        do {
            let first = Counted(1)
            pipe.on(\.tPing) { process in
                // Replace this very handler while it runs: its closure, and `first`, must
                // stay alive until the call returns.
                pipe.on(\.tPing) { _ in 2 }
                observed.set(
                    observed.value + [Counted.alive.load(ordering: .sequentiallyConsistent)])
                return first.value
            }
        }
        #expect(pipe.tPing(0) == 1)
        #expect(observed.value == [baseline + 1])  // still alive inside the call
        // Freed after, by the call as it returns (or by another spec's store that found it
        // unread first, as that store returns).
        #expect(settles { Counted.alive.load(ordering: .sequentiallyConsistent) == baseline })
        #expect(pipe.tPing(0) == 2)
    }

    @Test(
        "Overlapping calls on two threads: each replaced snapshot is freed when its last call returns"
    )
    func overlappingCallsOnTwoThreads() throws {
        let pipe = ActionPipe(name: "p")
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        let entered = DispatchSemaphore(value: 0)
        let gates = [1: DispatchSemaphore(value: 0), 2: DispatchSemaphore(value: 0)]
        func register(_ value: Int) {
            let counted = Counted(value)
            pipe.on(\.tPing) { process in
                entered.signal()
                gates[process.arguments]?.wait()
                return counted.value
            }
        }
        func alive() -> Int { Counted.alive.load(ordering: .sequentiallyConsistent) - baseline }
        let results = Box<[Int: Int]>([:])
        let returned = [1: DispatchSemaphore(value: 0), 2: DispatchSemaphore(value: 0)]
        func call(_ argument: Int) -> Thread {
            let thread = Thread {
                let result = pipe.tPing(argument) ?? -1
                results.set(results.value.merging([argument: result]) { $1 })
                returned[argument]!.signal()
            }
            thread.start()
            return thread
        }

        register(1)
        let first = call(1)  // runs handler 1, then waits at gate 1
        entered.wait()
        register(2)  // replaces handler 1 under the running call
        #expect(alive() == 2)
        let second = call(2)  // runs handler 2, then waits at gate 2
        entered.wait()
        register(3)  // replaces handler 2 under a call, while the first call still runs
        #expect(alive() == 3)

        // Each release is made by the call that ends, or, when another spec's store finds
        // the snapshot unread first (one retired list serves the process), by that store as
        // it returns: waited for, never assumed at the instant the call returns.
        gates[1]!.signal()  // the first call returns: handler 1 can go, handler 2 cannot
        try #require(returned[1]!.wait(timeout: .now() + 120) == .success)
        #expect(settles { alive() == 2 })  // handler 1 released; handler 2 still read
        gates[2]!.signal()  // the second call returns: handler 2 can go
        try #require(returned[2]!.wait(timeout: .now() + 120) == .success)
        #expect(settles { alive() == 1 })
        #expect(results.value == [1: 1, 2: 2])
        _ = (first, second)

        pipe.removeHandler(for: \.tPing)
        #expect(settles { alive() == 0 })
    }

    @Test("Nested calls on other chains and threads that exit do not stall reclamation")
    func nestedAndExitingThreads() async throws {
        let outer = ActionPipe(name: "outer")
        let inner = ActionPipe(name: "inner")
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        inner.on(\.tPing) { process in process.arguments + 1 }
        outer.on(\.tPing) { process in inner.tPing(process.arguments) ?? -1 }
        // Many short-lived threads, each calling once (and nesting into another chain).
        let finished = await runOnThreads(8) { _ in
            for _ in 0..<50 { _ = outer.tPing(1) }
        }
        #expect(finished)
        do {
            let counted = Counted(7)
            inner.on(\.tPing) { _ in counted.value }
        }
        #expect(outer.tPing(0) == 7)
        inner.removeHandler(for: \.tPing)
        #expect(Counted.alive.load(ordering: .sequentiallyConsistent) == baseline)
        #expect(outer.tPing(0) == -1)
    }
}
