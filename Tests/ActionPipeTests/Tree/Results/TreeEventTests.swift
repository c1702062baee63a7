import ActionPipe
import Testing

@Suite("Tree: events and report ordering", .hangBound)
struct TreeEventTests {
    /// root(1) → child(10, 11) → grandchild(each child's output + "a", + "b").
    private func makeTree() throws -> (
        OperationTreeNode<Int, Int>, OperationTreeNode<Int, String>,
        OperationTreeNode<String, String>
    ) {
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 * 10 })
        let child = OperationTreeNode(
            "child", objects: { (n: Int) in [n, n + 1] }, work: { (n: Int) in "c\(n)" })
        let grandchild = OperationTreeNode(
            "grandchild", objects: { (text: String) in [text + "a", text + "b"] },
            work: { (text: String) in text.uppercased() })
        try root.addChild(child).addChild(grandchild)
        return (root, child, grandchild)
    }

    @Test("per item: started, produced, then finished after every descendant (post-order)")
    func postOrder() async throws {
        let (root, _, _) = try makeTree()
        for (limit, order) in [
            (1, .depthFirst), (1, .breadthFirst), (2, .depthFirst), (4, .breadthFirst),
        ]
            as [(Int, OperationTreeOptions.Order)]
        {
            let (events, report) = await treeCollect(
                root.start(1, options: .init(concurrencyLimit: limit, order: order)))
            #expect(report.isSuccess)
            var position: [String: Int] = [:]
            for (index, event) in events.enumerated() {
                position["\(event)"] = index
            }
            var parentOf: [Int: Int] = [:]
            var finishedAt: [Int: Int] = [:]
            var producedAt: [Int: Int] = [:]
            var startedAt: [Int: Int] = [:]
            for (index, event) in events.enumerated() {
                switch event {
                case .started(let item, _):
                    startedAt[item.id] = index
                    parentOf[item.id] = item.parentID
                case .produced(let item, _): producedAt[item.id] = index
                case .finished(let item, _): finishedAt[item.id] = index
                default: Issue.record("unexpected event \(event)")
                }
            }
            #expect(finishedAt.count == 7)  // 1 root item, 2 child items, 4 grandchild items
            for (id, finished) in finishedAt {
                let produced = try #require(producedAt[id])
                let started = try #require(startedAt[id])
                #expect(started < produced)
                #expect(produced < finished)
                if let parent = parentOf[id] {
                    // the child starts after its parent produced, and finishes before it
                    #expect(try #require(producedAt[parent]) < started)
                    #expect(finished < (try #require(finishedAt[parent])))
                }
            }
            // the root item finishes last of all
            #expect(
                events.last.map { if case .finished(let item, _) = $0 { item.node } else { "" } }
                    == "root")
        }
    }

    @Test("item ids, parents and indexes describe the tree; outputs are typed per node")
    func itemsAndTypedOutputs() async throws {
        let (root, child, grandchild) = try makeTree()
        let (events, _) = await treeCollect(
            root.start(1, options: .init(concurrencyLimit: 1, order: .breadthFirst)))
        let childOutputs = events.compactMap { $0.output(of: child) }
        #expect(childOutputs == ["c10", "c11"])  // limit 1: in order
        let finishedGrandchildren = events.compactMap { $0.finishedOutput(of: grandchild) }
        #expect(finishedGrandchildren == ["C10A", "C10B", "C11A", "C11B"])
        #expect(events.compactMap { $0.output(of: root) } == [10])
        let started = events.compactMap { event -> OperationTreeItem? in
            if case .started(let item, _) = event { item } else { nil }
        }
        #expect(started.map(\.id) == Array(1...7))
        #expect(
            started.map(\.node) == ["root", "child", "child"]
                + Array(repeating: "grandchild", count: 4))
        #expect(started.map(\.parentID) == [nil, 1, 1, 2, 2, 3, 3])
        #expect(started.map(\.index) == [0, 0, 1, 0, 1, 0, 1])
        #expect(started[3].object as? String == "c10a")
        #expect(started[1].belongs(to: child))
        #expect(!started[1].belongs(to: root))
        #expect(started[3].description == "grandchild#4(c10a)")
    }

    @Test("retries and the final failure are events, in order, and the report lists failures")
    func failureEvents() async throws {
        let attempts = Counter()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in [n, n + 1] },
            work: { (n: Int) -> Int in
                if n == 2 {
                    attempts.increment()
                    throw TreeTestError(what: "item \(n)")
                }
                return n
            })
        let child = OperationTreeNode("child", objects: { (n: Int) in [n] }, work: { $0 })
        try root.addChild(child)
        let (events, report) = await treeCollect(
            root.start(1, options: .init(concurrencyLimit: 1, order: .breadthFirst)))
        let lines = events.map { "\($0)" }
        #expect(
            lines == [
                "started root#1(1) attempt 1",
                "produced root#1(1) -> 1",
                "started root#2(2) attempt 1",
                "retrying root#2(2) after attempt 1 (test failure: item 2), waiting 0.0 seconds",
                "started root#2(2) attempt 2",
                "retrying root#2(2) after attempt 2 (test failure: item 2), waiting 0.0 seconds",
                "started root#2(2) attempt 3",
                "failed " + "\(report.failures[0])",
                "finished root#2(2) (failed)",
                "started child#3(1) attempt 1",
                "produced child#3(1) -> 1",
                "finished child#3(1)",
                "finished root#1(1)",
            ])
        #expect(attempts.value == 3)
        #expect(report.failures.count == 1)
        #expect(report.succeededCount == 2)
        #expect(report.retryCount == 2)
        #expect(
            report.failures[0].description
                == "node 'root': work on 2 failed after 3 attempts: test failure: item 2; its subtree "
                + "was skipped")
    }

    @Test("objects(for:) failing skips that child node's items for that input, and is reported")
    func objectsFailure() async throws {
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        let broken = OperationTreeNode(
            "broken", objects: { (_: Int) -> [Int] in throw TreeTestError(what: "listing") },
            work: { $0 })
        let fine = OperationTreeNode("fine", objects: { (n: Int) in [n] }, work: { $0 })
        try root.addChild(broken)
        try root.addChild(fine)
        let report = await root.run(7, options: .init(retry: .init(maxAttempts: 2)))
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 2)  // root and fine
        let failure = try #require(report.failures.first)
        #expect(failure.node == "broken")
        #expect(failure.stage == .objects)
        #expect(failure.object as? Int == 7)
        #expect(failure.attempts == 2)
    }

    @Test("the root's objects(for:) failing reports the run's input as the object")
    func rootObjectsFailure() async throws {
        let root = OperationTreeNode(
            "root", objects: { (_: Int) -> [Int] in throw TreeTestError(what: "listing") },
            work: { $0 })
        let report = await root.run(5, options: .init(retry: .init(maxAttempts: 1)))
        #expect(report.succeededCount == 0)
        let failure = try #require(report.failures.first)
        #expect(failure.node == "root")
        #expect(failure.stage == .objects)
        #expect(failure.object as? Int == 5)
        #expect(failure.item == nil)
    }

    @Test("a node's own retry policy and shouldRetry win over the run's")
    func nodeRetryPolicy() async {
        let attempts = Counter()
        let node = OperationTreeNode(
            "n",
            retry: .init(maxAttempts: 5, shouldRetry: { ($0 as? TreeTestError)?.what != "fatal" }),
            objects: { (n: Int) in [n] },
            work: { (_: Int) -> Int in
                attempts.increment()
                throw TreeTestError(what: attempts.value == 2 ? "fatal" : "transient")
            })
        let report = await node.run(1)
        #expect(attempts.value == 2)  // a transient error, then a fatal one: no third attempt
        #expect(report.failures.first?.attempts == 2)
    }

    @Test("backoff delays are reported in the retrying events")
    func backoff() async {
        let node = OperationTreeNode(
            "n", objects: { (n: Int) in [n] },
            work: { (_: Int) -> Int in throw TreeTestError(what: "x") })
        let options = OperationTreeOptions(
            retry: .init(
                maxAttempts: 3,
                backoff: .exponential(initial: .milliseconds(2), maximum: .milliseconds(3))))
        let (events, _) = await treeCollect(node.start(1, options: options))
        let delays = events.compactMap { event -> Duration? in
            if case .retrying(_, let delay) = event { delay } else { nil }
        }
        #expect(delays == [.milliseconds(2), .milliseconds(3)])
    }

    @Test("the stream finishes when the run ends, also when nobody reads it")
    func streamFinishes() async {
        let node = OperationTreeNode("n", objects: { (n: Int) in Array(0..<n) }, work: { $0 })
        let run = node.start(100)
        let report = await run.report
        #expect(report.succeededCount == 100)
        var count = 0
        for await _ in run.events { count += 1 }
        #expect(count == 300)  // started, produced, finished per item
    }
}
