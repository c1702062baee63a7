import ActionPipe
import Testing

/// The tests of DRBOperationTree itself (SEMANTICS.md §4), on the Swift tree.
@Suite("Tree: the original's tests", .hangBound)
struct TreeOriginalTests {
    @Test("a single node runs its work for each object and completes")
    func singleNode() async {
        let log = Log()
        let node = OperationTreeNode(
            "single", objects: { (text: String) in [text] },
            work: { (text: String) in
                log.append(text)
                return text.count
            })
        let report = await node.run("hello")
        #expect(log.all == ["hello"])
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 1)
        #expect(report.isSuccess)
    }

    @Test("a nil object sent to a childless node completes without work")
    func nilObjectChildless() async {
        let log = Log()
        let node = OperationTreeNode(
            "optional", objects: { (object: String?) in object.map { [$0] } ?? [] },
            work: { (text: String) in log.append(text) })
        let report = await node.run(nil)
        #expect(log.all.isEmpty)
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 0)
        #expect(report.failures.isEmpty)
    }

    @Test("children and grandchildren all run, each on its parent's output")
    func childrenAndGrandchildren() async throws {
        let log = Log()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in [n] },
            work: { (n: Int) in
                log.append("root \(n)")
                return n * 10
            })
        let child = OperationTreeNode(
            "child", objects: { (n: Int) in [n + 1, n + 2] },
            work: { (n: Int) in
                log.append("child \(n)")
                return "c\(n)"
            })
        let grandchild = OperationTreeNode(
            "grandchild", objects: { (text: String) in [text + "a", text + "b"] },
            work: { (text: String) in log.append("grandchild \(text)") })
        try root.addChild(child).addChild(grandchild)
        let report = await root.run(1)
        #expect(report.isSuccess)
        #expect(report.succeededCount == 7)
        #expect(
            Set(log.all)
                == [
                    "root 1", "child 11", "child 12", "grandchild c11a", "grandchild c11b",
                    "grandchild c12a", "grandchild c12b",
                ])
    }

    @Test("an always-failing provider gets exactly 3 attempts; the run completes and reports it")
    func alwaysFailingProvider() async throws {
        let attempts = Log()
        let ranBelow = Log()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in [n] },
            work: { (n: Int) -> Int in
                attempts.append("attempt")
                throw TreeTestError(what: "fetch \(n)")
            })
        let child = OperationTreeNode(
            "child", objects: { (n: Int) in [n] }, work: { (n: Int) in ranBelow.append("\(n)") })
        try root.addChild(child)
        let report = await root.run(5)
        #expect(attempts.all.count == 3)
        #expect(ranBelow.all.isEmpty)  // the subtree was skipped
        #expect(report.outcome == .completed)  // the completion still fires
        #expect(report.failures.count == 1)  // ... and, unlike the original, says why
        let failure = try #require(report.failures.first)
        #expect(failure.node == "root")
        #expect(failure.stage == .work)
        #expect(failure.attempts == 3)
        #expect(failure.error as? TreeTestError == TreeTestError(what: "fetch 5"))
        #expect(failure.object as? Int == 5)
        #expect(report.retryCount == 2)
        #expect(!report.isSuccess)
    }
}
