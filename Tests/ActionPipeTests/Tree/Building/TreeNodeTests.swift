import ActionPipe
import Testing

/// A provider type, like DRBOperationProvider.
private struct TreeDoublingProvider: OperationTreeProvider {
    func objects(for input: [Int]) async throws -> [Int] { input }
    func work(on item: Int) async throws -> Int { item * 2 }
}

@Suite("Tree: building trees, misuse, re-entrancy and lifetime", .hangBound)
struct TreeNodeTests {
    @Test("a provider type works like closures")
    func providerType() async throws {
        let node = OperationTreeNode("double", provider: TreeDoublingProvider())
        let sums = Log()
        let child = OperationTreeNode(
            "sink", objects: { (n: Int) in [n] }, work: { (n: Int) in sums.append("\(n)") })
        try node.addChild(child)
        let report = await node.run([1, 2, 3], options: .init(concurrencyLimit: 1))
        #expect(report.isSuccess)
        #expect(sums.all == ["2", "4", "6"])
    }

    @Test("children keep the order they were added in; siblings start in that order")
    func siblingOrder() async throws {
        let log = Log()
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        for name in ["images", "ingredients", "notes"] {
            try root.addChild(
                OperationTreeNode(
                    name, objects: { (n: Int) in [n] }, work: { (_: Int) in log.append(name) }))
        }
        #expect(root.childNames == ["images", "ingredients", "notes"])
        _ = await root.run(1, options: .init(concurrencyLimit: 1))
        #expect(log.all == ["images", "ingredients", "notes"])
    }

    @Test("a cycle is refused with an error that says what to do; the tree is unchanged")
    func cycleRefused() throws {
        let a = OperationTreeNode("a", objects: { (n: Int) in [n] }, work: { $0 })
        let b = OperationTreeNode("b", objects: { (n: Int) in [n] }, work: { $0 })
        try a.addChild(b)
        #expect(throws: OperationTreeError.cycle(parent: "b", child: "a")) { try b.addChild(a) }
        #expect(throws: OperationTreeError.cycle(parent: "a", child: "a")) { try a.addChild(a) }
        #expect(b.childNames.isEmpty)
        #expect(a.childNames == ["b"])
        #expect("\(OperationTreeError.cycle(parent: "b", child: "a"))".contains("make a new node"))
    }

    @Test("concurrent addChild calls cannot build a cycle together")
    func concurrentCycle() async throws {
        for _ in 0..<200 {
            let a = OperationTreeNode("a", objects: { (n: Int) in [n] }, work: { $0 })
            let b = OperationTreeNode("b", objects: { (n: Int) in [n] }, work: { $0 })
            async let first: Bool = (try? a.addChild(b)) != nil
            async let second: Bool = (try? b.addChild(a)) != nil
            let (one, two) = await (first, second)
            #expect(one != two)  // exactly one succeeded
        }
    }

    @Test("a node shared by two parents runs under each; its own limit spans both")
    func sharedNode() async throws {
        let gauge = TreeConcurrencyGauge()
        let log = Log()
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        let left = OperationTreeNode("left", objects: { (n: Int) in [n] }, work: { $0 + 100 })
        let right = OperationTreeNode("right", objects: { (n: Int) in [n] }, work: { $0 + 200 })
        let shared = OperationTreeNode(
            "shared", concurrencyLimit: 1, objects: { (n: Int) in [n, n + 1] },
            work: { (n: Int) in
                await gauge.measure {
                    log.append("\(n)")
                    try? await Task.sleep(for: .milliseconds(1))
                }
            })
        try root.addChild(left).addChild(shared)
        try root.addChild(right).addChild(shared)
        let report = await root.run(1)
        #expect(report.isSuccess)
        #expect(Set(log.all) == ["101", "102", "201", "202"])
        #expect(gauge.peak == 1)
    }

    @Test("an empty objects list, an empty input: the run completes at once")
    func emptyObjects() async {
        let node = OperationTreeNode("none", objects: { (_: Int) in [Int]() }, work: { $0 })
        let report = await node.run(1)
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 0)
        #expect(report.peakConcurrency == 1)  // objects(for:) of the root itself
    }

    @Test("options below the minimum count as the minimum")
    func badOptions() {
        var options = OperationTreeOptions(concurrencyLimit: -5)
        #expect(options.concurrencyLimit == 1)
        options.concurrencyLimit = 0
        #expect(options.concurrencyLimit == 1)
        #expect(OperationTreeRetryPolicy(maxAttempts: 0).maxAttempts == 1)
        let node = OperationTreeNode(
            "n", concurrencyLimit: 0, objects: { (n: Int) in [n] }, work: { $0 })
        #expect(node.concurrencyLimit == 1)
    }

    @Test("re-entrant: a provider adds children, starts another run, and reads the tree")
    func reentrant() async throws {
        let inner = Log()
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        let late = OperationTreeNode(
            "late", objects: { (n: Int) in [n] }, work: { (n: Int) in inner.append("late \(n)") })
        let nested = OperationTreeNode(
            "nested", objects: { (n: Int) in [n] },
            work: { [unowned root, unowned late] (n: Int) in
                // Inside a provider call: change the tree and run it again.
                // (Unowned: `root` keeps this node, which keeps this closure.)
                if n == 1 {
                    try root.addChild(late)
                    #expect(root.childNames == ["nested", "late"])
                    let report = await root.run(2)
                    inner.append("inner run: \(report.succeededCount)")
                }
                return n
            })
        try root.addChild(nested)
        let report = await root.run(1)
        #expect(report.isSuccess)
        // The outer run planned before `late` was added, so only the inner run has it.
        #expect(report.succeededCount == 2)
        #expect(inner.all.contains("late 2"))
        #expect(!inner.all.contains("late 1"))
        #expect(inner.all.contains("inner run: 3"))
    }

    @Test("a run and its handle release the tree, items and outputs when done")
    func noLeaks() async throws {
        weak var weakRoot: OperationTreeNode<Int, TreeTracked>?
        weak var weakOutput: TreeTracked?
        weak var weakRun: OperationTreeRun?
        do {
            let root = OperationTreeNode(
                "root", objects: { (n: Int) in [n] }, work: { TreeTracked($0) })
            let child = OperationTreeNode(
                "child", objects: { (t: TreeTracked) in [t] }, work: { $0.value })
            try root.addChild(child)
            weakRoot = root
            let run = root.start(1)
            weakRun = run
            let (events, report) = await treeCollect(run)
            weakOutput = events.compactMap { $0.output(of: root) }.first
            #expect(weakOutput != nil)
            #expect(report.isSuccess)
        }
        // The run's task may still be winding down for a moment after its value is ready.
        _ = await eventually { weakRoot == nil && weakOutput == nil && weakRun == nil }
        #expect(weakRoot == nil)
        #expect(weakOutput == nil)
        #expect(weakRun == nil)
    }
}

/// An output whose lifetime the leak test watches.
final class TreeTracked: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
