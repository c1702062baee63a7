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
    final class AliveSnapshot: Sendable {
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
        let cell = SnapshotCell<AliveSnapshot>()
        _ = cell.store(AliveSnapshot(-1, alive))
        let pinned = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = await runOnThreads(2) { index in
            if index == 0 {
                let pin = cell.pin()
                pinned.signal()
                release.wait()
                #expect(pin.snapshot?.object.value == -1)
                cell.unpin(pin)
            } else {
                pinned.wait()
                for round in 0..<5_000 { _ = cell.store(AliveSnapshot(round, alive)) }
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
    func deepNesting() async {
        let alive = Counter()
        let cell = SnapshotCell<AliveSnapshot>()
        var pins: [SnapshotCell<AliveSnapshot>.Pin] = []
        for level in 0..<300 {
            _ = cell.store(AliveSnapshot(level, alive))
            pins.append(cell.pin())
        }
        // Every level still reads its own snapshot.
        #expect(alive.value == 300)
        for (level, pin) in pins.enumerated() {
            #expect(pin.snapshot?.object.value == level)
        }
        for level in (0..<300).reversed() {
            cell.unpin(pins[level])
            // The current one (299) and every level still pinned stay; the others go as
            // their readers end (released by this thread, or by another spec's store that
            // found them unread first: one retired list serves the process).
            #expect(alive.value >= level + 1)
        }
        #expect(await eventually { alive.value == 1 })
        _ = cell.store(nil)
        #expect(await eventually { alive.value == 0 })
    }

    @Test("a thread's record serves the next thread: 2,000 threads in turn add few records")
    func recordsAreReused() async {
        let cell = SnapshotCell<AliveSnapshot>()
        let alive = Counter()
        _ = cell.store(AliveSnapshot(0, alive))
        let before = ThreadRecord.count
        let reads = Counter()
        let finished = await runOnThreads(1) { _ in
            for _ in 0..<2_000 {
                let thread = Thread {
                    let pin = cell.pin()
                    if pin.snapshot?.object.value == 0 { reads.increment() }
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
        let cell = SnapshotCell<AliveSnapshot>()
        _ = cell.store(AliveSnapshot(0, alive))
        let wrong = Counter()
        let finished = await runOnThreads(4) { index in
            if index == 0 {
                for round in 1...5_000 { _ = cell.store(AliveSnapshot(round, alive)) }
            } else {
                for _ in 0..<20_000 {
                    let pin = cell.pin()
                    let value = pin.snapshot?.object.value ?? -1
                    if value < 0 || value > 5_000 { wrong.increment() }
                    cell.unpin(pin)
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        // No reader runs: the next store frees everything but the new snapshot.
        _ = cell.store(AliveSnapshot(-1, alive))
        #expect(alive.value == 1)
        _ = cell.store(nil)
        #expect(alive.value == 0)
    }

    /// A snapshot that knows whether its `deinit` has run: a reader that ever finds it dead
    /// read freed memory (the address sanitizer reports that run as well).
    final class Checked: Sendable {
        let alive = Atomic<Bool>(true)
        let value: Int
        init(_ value: Int) { self.value = value }
        deinit { alive.store(false, ordering: .sequentiallyConsistent) }
    }

    @Test(
        "threads that come and go, deep pins and a writer: no reader ever holds a freed snapshot",
        .hangBound)
    func churnNeverFrees() async {
        let cell = SnapshotCell<Checked>()
        _ = cell.store(Checked(0))
        let dead = Counter()
        let reads = Counter()
        let writing = Atomic<Bool>(true)
        /// Pins `depth` times in a row (past a record's first block when deep), checks every
        /// snapshot it holds, then unpins in reverse.
        @Sendable func readNested(_ depth: Int) {
            var pins: [SnapshotCell<Checked>.Pin] = []
            for _ in 0..<depth {
                let pin = cell.pin()
                if let snapshot = pin.snapshot?.object,
                    !snapshot.alive.load(ordering: .sequentiallyConsistent)
                {
                    dead.increment()
                }
                pins.append(pin)
            }
            for pin in pins {
                if pin.snapshot?.object.alive.load(ordering: .sequentiallyConsistent)
                    == false
                {
                    dead.increment()
                }
            }
            for pin in pins.reversed() { cell.unpin(pin) }
            reads.increment()
        }
        let finished = await runOnThreads(3) { index in
            switch index {
            case 0:
                for round in 1...20_000 { _ = cell.store(Checked(round)) }
                writing.store(false, ordering: .sequentiallyConsistent)
            case 1:
                var round = 0
                while writing.load(ordering: .sequentiallyConsistent) || round < 100 {
                    readNested(round % 40 + 1)
                    round += 1
                }
            default:
                // Short-lived readers: each thread's record goes back to the list as the next
                // one starts, while the writer scans.
                var started = 0
                while writing.load(ordering: .sequentiallyConsistent) || started < 20 {
                    let depth = started % 20 + 1
                    let thread = Thread { readNested(depth) }
                    thread.start()
                    while !thread.isFinished { usleep(10) }
                    started += 1
                }
            }
        }
        #expect(finished)
        #expect(dead.value == 0)
        #expect(reads.value > 0)
        _ = cell.store(nil)
    }
}
