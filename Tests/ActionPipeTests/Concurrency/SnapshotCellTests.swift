import ActionPipeConcurrency
import Dispatch
import Foundation
import Synchronization
import Testing

/// The concurrency module's read-mostly snapshot, driven directly: every part (core chains,
/// bus routes, plumbing configuration) relies on these rules, and a debug build's extra
/// retains would hide a mistake from the public API.
@Suite("Concurrency module: SnapshotCell", .serialized)
struct SnapshotCellTests {
    final class Item: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    /// The values of this suite's items among `freed`: one list of retired snapshots serves
    /// every slot of the process, so a store may also hand back other specs' snapshots.
    func values(_ freed: [AnyObject]) -> [Int] {
        freed.compactMap { ($0 as? Item)?.value }
    }

    @Test("a replaced snapshot nobody reads is handed back at once")
    func freedAtOnce() {
        let cell = SnapshotCell<Item>()
        #expect(values(cell.store(Item(1))).isEmpty)  // nothing was there
        let freed = cell.store(Item(2))
        #expect(values(freed) == [1])
        #expect(cell.load()?.value == 2)
    }

    @Test("a snapshot a reader pinned waits, and the reader that unpins frees it")
    func readerFreesIt() async {
        let cell = SnapshotCell<Item>()
        _ = cell.store(Item(1))
        let pin = cell.pin()
        weak let weakOld = pin.snapshot?.object
        #expect(values(cell.store(Item(2))).isEmpty)  // still read: kept
        #expect(weakOld != nil)
        #expect(pin.snapshot?.object.value == 1)  // the reader's view holds
        cell.unpin(pin)
        // Freed by this reader, or by another spec's store that found it unread first
        // (one retired list serves the process) and releases it as it returns.
        #expect(await eventually { weakOld == nil })
        #expect(cell.load()?.value == 2)
    }

    @Test("nested pins keep the outer snapshot until the outermost unpin")
    func nestedPins() async {
        let cell = SnapshotCell<Item>()
        _ = cell.store(Item(1))
        let outer = cell.pin()
        weak let weakFirst = outer.snapshot?.object
        _ = cell.store(Item(2))
        let inner = cell.pin()
        #expect(inner.snapshot?.object.value == 2)
        cell.unpin(inner)
        #expect(weakFirst != nil)
        cell.unpin(outer)
        // Freed by this unpin, or by another spec's store that took it from the process's
        // retired list first and releases it as that store returns.
        #expect(await eventually { weakFirst == nil })
    }

    @Test("a snapshot pinned on another thread outlives stores until that thread unpins")
    func otherThreadsPin() async throws {
        let cell = SnapshotCell<Item>()
        _ = cell.store(Item(1))
        let pinned = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let pin = cell.pin()
            pinned.signal()
            _ = done.wait(timeout: .now() + 30)
            cell.unpin(pin)
            finished.signal()
        }
        try #require(pinned.wait(timeout: .now() + 30) == .success)
        weak let weakFirst = cell.load()
        #expect(values(cell.store(Item(2))).isEmpty)  // the first is pinned
        #expect(weakFirst != nil)
        // The second was stored after the pin: no reader of it can exist, yet the cell
        // cannot tell which snapshot a reader of the awaited phase holds, so it may wait too.
        let second = values(cell.store(Item(3)))
        #expect(second.allSatisfy { $0 == 2 })
        done.signal()
        try #require(finished.wait(timeout: .now() + 30) == .success)
        #expect(await eventually { weakFirst == nil })  // as in `readerFreesIt`
        // Everything retired has been handed back or freed: the next store frees at once.
        #expect(values(cell.store(Item(4))) == [3])
    }

    @Test("readers that never stop overlapping cannot keep a retired snapshot alive")
    func overlappingReadersDrain() async {
        let cell = SnapshotCell<Item>()
        _ = cell.store(Item(0))
        // Two threads take turns: each pins before the other unpins, so some reader is
        // always running; each retired snapshot is still freed when its own reader ends.
        let turns = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let freed = TestLock<[Bool]>([])
        let finished = await runOnThreads(2) { index in
            let (mine, theirs) = index == 0 ? turns : (turns.1, turns.0)
            if index == 1 { mine.wait() }
            for _ in 0..<4 {
                let pin = cell.pin()
                weak let held = pin.snapshot?.object
                _ = cell.store(Item(index))
                theirs.signal()  // the other thread pins now
                mine.wait()
                cell.unpin(pin)
                // Freed by this unpin, or by another thread's collection (the retired list
                // is the process's, and tests run in parallel) a moment later, while the
                // other reader of this test still overlaps.
                let deadline = ContinuousClock.now + .seconds(5)
                while held != nil, ContinuousClock.now < deadline { usleep(100) }
                freed.withLock { $0.append(held == nil) }
            }
            theirs.signal()
        }
        #expect(finished)
        #expect(freed.withLock { $0 } == Array(repeating: true, count: 8))
    }
}
