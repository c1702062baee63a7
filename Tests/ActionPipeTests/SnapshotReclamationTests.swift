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
    func callsRaceReplacement() throws {
        let pipes = try makeChain("a", "b")
        pipes[0].on(\.tPing) { process in process.arguments + 1 }
        pipes[1].on(\.tPing) { process in (process.upstream ?? 0) + 1 }
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        let stop = Atomic<Bool>(false)
        let wrong = Counter()
        let calls = Counter()
        let finished = runOnThreads(3) { index in
            if index == 0 {
                // The writer: replace b's handler, each capturing a fresh object.
                for round in 0..<2_000 {
                    let counted = Counted(round)
                    pipes[1].on(\.tPing) { process in
                        (process.upstream ?? 0) + counted.value - counted.value + 1
                    }
                }
                stop.store(true, ordering: .sequentiallyConsistent)
            } else {
                // Readers: every call must see both handlers' whole effect.
                while !stop.load(ordering: .sequentiallyConsistent) {
                    if pipes[0].tPing(0) != 2 { wrong.increment() }
                    calls.increment()
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(calls.value > 0)
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
        #expect(Counted.alive.load(ordering: .sequentiallyConsistent) == baseline)  // freed after
        #expect(pipe.tPing(0) == 2)
    }

    @Test("Nested calls on other chains and threads that exit do not stall reclamation")
    func nestedAndExitingThreads() throws {
        let outer = ActionPipe(name: "outer")
        let inner = ActionPipe(name: "inner")
        let baseline = Counted.alive.load(ordering: .sequentiallyConsistent)
        inner.on(\.tPing) { process in process.arguments + 1 }
        outer.on(\.tPing) { process in inner.tPing(process.arguments) ?? -1 }
        // Many short-lived threads, each calling once (and nesting into another chain).
        let finished = runOnThreads(8) { _ in
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
