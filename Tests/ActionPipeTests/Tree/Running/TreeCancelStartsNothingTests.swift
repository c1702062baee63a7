import ActionPipe
import Synchronization
import Testing

/// Counts the provider calls (`objects` and `work`) that begin after `cancel()` has returned.
final class TreeStartWatch: Sendable {
    private let cancelReturned = Atomic<Bool>(false)
    private let late = Atomic<Int>(0)

    /// Called first thing by every provider call of the tree under test.
    func call() {
        if cancelReturned.load(ordering: .sequentiallyConsistent) {
            late.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Called right after the cancel call returned.
    func cancelHasReturned() { cancelReturned.store(true, ordering: .sequentiallyConsistent) }

    /// Provider calls that began after ``cancelHasReturned()``.
    var startedAfterCancel: Int { late.load(ordering: .sequentiallyConsistent) }
}

@Suite("Tree: nothing starts after cancel() returns", .hangBound)
struct TreeCancelStartsNothingTests {
    /// A parent whose work ignores cancellation and returns only when `release` opens, with a
    /// child whose `objects` and `work` report to `watch`.
    private static func tree(
        _ watch: TreeStartWatch, entered: TreeGate, release: TreeGate
    ) throws -> OperationTreeNode<Int, Int> {
        let parent = OperationTreeNode(
            "parent",
            objects: { (n: Int) -> [Int] in
                watch.call()
                return [n]
            },
            work: { (n: Int) -> Int in
                watch.call()
                entered.open()
                await release.wait()  // ignores cancellation, returns normally
                return n
            })
        let child = OperationTreeNode(
            "child",
            objects: { (n: Int) -> [Int] in
                watch.call()
                return [n, n + 1]
            },
            work: { (n: Int) -> Int in
                watch.call()
                return n
            })
        try parent.addChild(child)
        return parent
    }

    @Test("the handle: work that ignores cancellation and returns starts no child provider")
    func handleStartsNoProvider() async throws {
        let watch = TreeStartWatch()
        let entered = TreeGate()
        let release = TreeGate()
        let parent = try Self.tree(watch, entered: entered, release: release)
        let run = parent.start(1)
        await entered.wait()
        run.cancel()
        watch.cancelHasReturned()
        release.open()
        let report = await run.report
        #expect(watch.startedAfterCancel == 0)
        #expect(report.outcome == .cancelled)
        #expect(report.failures.isEmpty)
    }

    @Test("the calling task: work that ignores cancellation and returns starts no child provider")
    func callingTaskStartsNoProvider() async throws {
        let watch = TreeStartWatch()
        let entered = TreeGate()
        let release = TreeGate()
        let parent = try Self.tree(watch, entered: entered, release: release)
        let task = Task { await parent.run(1) }
        await entered.wait()
        task.cancel()
        watch.cancelHasReturned()
        release.open()
        let report = await task.value
        #expect(watch.startedAfterCancel == 0)
        #expect(report.outcome == .cancelled)
        #expect(report.failures.isEmpty)
    }

    @Test("an item handed to a worker before cancel() does not start after it; it is not started")
    func handedOutItemDoesNotStart() async {
        let watch = TreeStartWatch()
        let stored = TreeGate()
        let running = Box<Task<OperationTreeReport, Never>?>(nil)
        let node = OperationTreeNode(
            "n", objects: { (n: Int) -> [Int] in Array(0..<n) },
            work: { (n: Int) -> Int in
                watch.call()
                if n == 0 { await stored.wait() }
                return n
            })
        // Limit 1: completing item 0 hands item 1 to the same worker, which then delivers
        // `finished` for item 0 to the callback, and only then runs item 1. The callback
        // cancels the run in between.
        let task = Task {
            await node.run(3, options: .init(concurrencyLimit: 1)) { event in
                guard case .finished(let item, _) = event, item.index == 0 else { return }
                running.value?.cancel()
                watch.cancelHasReturned()
            }
        }
        running.set(task)
        stored.open()
        let report = await task.value
        #expect(watch.startedAfterCancel == 0)
        #expect(report.outcome == .cancelled)
        #expect(report.succeededCount == 1)
        #expect(report.notStartedCount == 2)
        #expect(report.counts(for: node) == .init(succeeded: 1, notStarted: 2))
    }
}
