// Benchmarks of the operation tree (issue 6) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.
//
// Every benchmark runs one tree of depth 3 and fan-out 10 (1 + 10 + 100 + 1,000 = 1,111
// items) with trivial work per item, once per measured iteration; the targets file divides
// by 1,111, so the figures read per item.

import ActionPipe
import Benchmark
import Dispatch
import Foundation
import Synchronization

/// Items in the benchmark tree: 1 + 10 + 100 + 1,000.
let treeItemCount = 1_111
let treeFanOut = 10
let treeDepth = 3

/// The trivial work of one item.
@inline(never)
func treeTrivialWork(_ value: Int) -> Int { value &* 31 &+ 7 }

/// The benchmark tree as an operation tree: 4 nodes (levels 0...3), each item of a level
/// mapped to `treeFanOut` items of the next.
func treeMakeBenchmarkTree() -> OperationTreeNode<Int, Int> {
    let root = OperationTreeNode(
        "level0", objects: { (n: Int) in [n] }, work: { (n: Int) in treeTrivialWork(n) })
    var parent = root
    for level in 1...treeDepth {
        let node = OperationTreeNode(
            "level\(level)", objects: { (n: Int) in (0..<treeFanOut).map { n &+ $0 } },
            work: { (n: Int) in treeTrivialWork(n) })
        do {
            try parent.addChild(node)
        } catch {
            fatalError("cannot build the benchmark tree: \(error)")
        }
        parent = node
    }
    return root
}

/// The straightforward structured-concurrency tree: one child task per item, each item's
/// children in a task group of its own.
func treeTaskGroupNode(_ value: Int, depth: Int) async -> Int {
    let output = treeTrivialWork(value)
    guard depth > 0 else { return 1 }
    return await withTaskGroup(of: Int.self) { group in
        for index in 0..<treeFanOut {
            group.addTask { await treeTaskGroupNode(output &+ index, depth: depth - 1) }
        }
        var count = 1
        for await done in group { count += done }
        return count
    }
}

/// The OperationQueue tree: each operation does its work, then enqueues its children's
/// operations on the same queue.
final class TreeOperationQueueRun: Sendable {
    let queue: OperationQueue
    let finished = Atomic<Int>(0)

    init() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = ProcessInfo.processInfo.activeProcessorCount
        self.queue = queue
    }

    func enqueue(_ value: Int, depth: Int) {
        queue.addOperation { [self] in
            let output = treeTrivialWork(value)
            if depth > 0 {
                for index in 0..<treeFanOut { enqueue(output &+ index, depth: depth - 1) }
            }
            finished.add(1, ordering: .relaxed)
        }
    }

    /// Runs the whole tree and returns the number of operations that ran.
    func run() -> Int {
        enqueue(1, depth: treeDepth)
        queue.waitUntilAllOperationsAreFinished()
        return finished.load(ordering: .acquiring)
    }
}

/// Issue 6's targets: the operation tree against a task-group tree and an OperationQueue tree.
func registerOperationTreeBenchmarks() {
    let tree = treeMakeBenchmarkTree()
    let configuration = Benchmark.Configuration(
        scalingFactor: .one, maxDuration: .seconds(2), maxIterations: 2_000)

    for limit in [2, 4] {
        let options = OperationTreeOptions(concurrencyLimit: limit)
        Benchmark("Tree ActionPipe 1111 nodes, limit \(limit)", configuration: configuration) {
            benchmark in
            for _ in benchmark.scaledIterations {
                let report = await tree.run(1, options: options)
                // The limit is checked on every measured run, not only in the tests.
                guard report.succeededCount == treeItemCount, report.peakConcurrency <= limit else {
                    fatalError("operation tree: \(report)")
                }
                blackHole(report)
            }
        }
    }

    // The same tree with a listener: every event (started, produced, finished per item)
    // goes through the run's AsyncStream and is read.
    Benchmark("Tree ActionPipe 1111 nodes, limit 4, events", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let run = tree.start(1, options: .init(concurrencyLimit: 4), buffering: .unbounded)
            var events = 0
            for await _ in run.events { events += 1 }
            check(events, 3 * treeItemCount, "operation tree events")
            blackHole(await run.report)
        }
    }

    Benchmark("Tree Peer TaskGroup 1111 nodes", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let count = await treeTaskGroupNode(1, depth: treeDepth)
            check(count, treeItemCount, "task-group tree")
            blackHole(count)
        }
    }

    Benchmark("Tree Peer OperationQueue 1111 nodes", configuration: configuration) {
        benchmark in
        for _ in benchmark.scaledIterations {
            let count = TreeOperationQueueRun().run()
            check(count, treeItemCount, "OperationQueue tree")
            blackHole(count)
        }
    }
}
