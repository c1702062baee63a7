import ActionPipeConcurrency
import Dispatch
import Foundation
import Synchronization
import Testing

/// The concurrency module's read side, driven directly: hazard slots in per-thread records.
/// These are the rules every part's hot path relies on.
@Suite("Concurrency module: thread records and hazard slots", .serialized)
struct ThreadRecordTests {
    /// A snapshot that counts how many of its kind are alive (one counter per spec).
    final class Tracked: Sendable {
        let value: Int
        let alive: Counter
        init(_ value: Int, _ alive: Counter) {
            self.value = value
            self.alive = alive
            alive.increment()
        }
        deinit { alive.decrement() }
    }

    @Test("a parked reader keeps alive only the snapshot it reads, not what is retired after it")
    func parkedReaderPinsOne() async throws {
        let alive = Counter()
        let cell = SnapshotCell<Tracked>()
        _ = cell.store(Tracked(-1, alive))
        let pinned = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = await runOnThreads(2) { index in
            if index == 0 {
                let pin = cell.pin()
                pinned.signal()
                release.wait()
                #expect(pin.snapshot?.takeUnretainedValue().value == -1)
                cell.unpin(pin)
            } else {
                pinned.wait()
                for round in 0..<5_000 { _ = cell.store(Tracked(round, alive)) }
                // The current snapshot and the one the parked reader holds.
                #expect(alive.value == 2)
                release.signal()
            }
        }
        #expect(finished)
        // The reader freed the snapshot it held when it unpinned.
        #expect(alive.value == 1)
        _ = cell.store(nil)
        #expect(alive.value == 0)
    }

    @Test("pins nest past a record's first block; each lives until its own unpin")
    func deepNesting() {
        let alive = Counter()
        let cell = SnapshotCell<Tracked>()
        var pins: [SnapshotCell<Tracked>.Pin] = []
        for level in 0..<300 {
            _ = cell.store(Tracked(level, alive))
            pins.append(cell.pin())
        }
        // Every level still reads its own snapshot.
        #expect(alive.value == 300)
        for (level, pin) in pins.enumerated() {
            #expect(pin.snapshot?.takeUnretainedValue().value == level)
        }
        for level in (0..<300).reversed() {
            cell.unpin(pins[level])
            // The current one (299) stays; the others go as their readers end.
            #expect(alive.value == level + 1)
        }
        _ = cell.store(nil)
        #expect(alive.value == 0)
    }

    @Test("a thread's record serves the next thread: 2,000 threads in turn add few records")
    func recordsAreReused() async {
        let cell = SnapshotCell<Tracked>()
        let alive = Counter()
        _ = cell.store(Tracked(0, alive))
        let before = ThreadRecord.count
        let reads = Counter()
        let finished = await runOnThreads(1) { _ in
            for _ in 0..<2_000 {
                let thread = Thread {
                    let pin = cell.pin()
                    if pin.snapshot?.takeUnretainedValue().value == 0 { reads.increment() }
                    cell.unpin(pin)
                    // A pthread key's destructor runs at thread exit, after this closure.
                }
                thread.start()
                while !thread.isFinished { usleep(50) }
            }
        }
        #expect(finished)
        #expect(reads.value == 2_000)
        // Other specs' threads may take records meanwhile, but never one per thread here.
        #expect(ThreadRecord.count - before < 100)
    }

    @Test("readers on many threads and a writer: every read sees a whole snapshot; all freed")
    func readersAndWriter() async {
        let alive = Counter()
        let cell = SnapshotCell<Tracked>()
        _ = cell.store(Tracked(0, alive))
        let wrong = Counter()
        let finished = await runOnThreads(4) { index in
            if index == 0 {
                for round in 1...5_000 { _ = cell.store(Tracked(round, alive)) }
            } else {
                for _ in 0..<20_000 {
                    let pin = cell.pin()
                    let value = pin.snapshot?.takeUnretainedValue().value ?? -1
                    if value < 0 || value > 5_000 { wrong.increment() }
                    cell.unpin(pin)
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        // No reader runs: the next store frees everything but the new snapshot.
        _ = cell.store(Tracked(-1, alive))
        #expect(alive.value == 1)
        _ = cell.store(nil)
        #expect(alive.value == 0)
    }
}
