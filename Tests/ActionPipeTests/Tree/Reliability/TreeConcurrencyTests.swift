import ActionPipe
import Testing

@Suite("Tree: concurrency limit and pipelining", .hangBound)
struct TreeConcurrencyTests {
    @Test("the peak of running provider calls never exceeds the limit", arguments: [1, 2, 3, 8])
    func limitHolds(limit: Int) async {
        let gauge = TreeConcurrencyGauge()
        let tree = treeMakeUniform(depth: 2, fanOut: 6) { _, value in
            await gauge.measure {
                await Task.yield()  // give other workers the chance to overlap
                return value
            }
        }
        let report = await tree.run(1, options: .init(concurrencyLimit: limit))
        #expect(report.succeededCount == 1 + 6 + 36)
        #expect(gauge.peak <= limit)
        #expect(report.peakConcurrency <= limit)
        #expect(report.peakConcurrency >= gauge.peak)  // the run counts what the gauge sees
    }

    @Test("the limit is reached when there is enough work")
    func limitIsUsed() async {
        let gauge = TreeConcurrencyGauge()
        let arrived = Log()
        let gate = TreeGate()
        let node = OperationTreeNode(
            "wide", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) in
                await gauge.measure {
                    arrived.append("\(n)")
                    if arrived.all.count == 3 { gate.open() }
                    await gate.wait()  // hold until 3 calls overlap
                }
            })
        let report = await node.run(10, options: .init(concurrencyLimit: 3))
        #expect(gauge.peak == 3)
        #expect(report.peakConcurrency == 3)
        #expect(report.succeededCount == 10)
    }

    @Test("a node's own limit holds within the run's limit")
    func perNodeLimit() async throws {
        let gauge = TreeConcurrencyGauge()
        let other = TreeConcurrencyGauge()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) in
                await other.measure {
                    await Task.yield()
                    return n
                }
            })
        let limited = OperationTreeNode(
            "limited", concurrencyLimit: 2, objects: { (n: Int) in [n, n + 100, n + 200] },
            work: { (n: Int) in
                await gauge.measure {
                    try? await Task.sleep(for: .milliseconds(1))
                }
            })
        try root.addChild(limited)
        let report = await root.run(8, options: .init(concurrencyLimit: 6))
        #expect(report.succeededCount == 8 + 24)
        #expect(gauge.peak <= 2)
        #expect(report.peakConcurrency <= 6)
        #expect(report.notStartedCount == 0)
    }

    @Test("pipelined: a child starts before a slow sibling of its parent finishes")
    func pipelined() async throws {
        let log = Log()
        let slowGate = TreeGate()
        let root = OperationTreeNode(
            "recipe", objects: { (ids: [String]) in ids },
            work: { (id: String) in
                if id == "slow" {
                    await slowGate.wait()  // opens only once the fast recipe's child ran
                }
                log.append("recipe \(id) done")
                return id
            })
        let child = OperationTreeNode(
            "ingredient", objects: { (recipe: String) in [recipe + "-salt"] },
            work: { (name: String) in
                log.append("ingredient \(name)")
                if name == "fast-salt" { slowGate.open() }
            })
        try root.addChild(child)
        let report = await root.run(["slow", "fast"], options: .init(concurrencyLimit: 2))
        #expect(report.isSuccess)
        let entries = log.all
        let fastChild = try #require(entries.firstIndex(of: "ingredient fast-salt"))
        let slowDone = try #require(entries.firstIndex(of: "recipe slow done"))
        #expect(fastChild < slowDone)
    }

    @Test("breadth first with limit 1: level by level, siblings in order")
    func limitOneIsSequentialFIFO() async {
        let log = Log()
        let tree = treeMakeUniform(depth: 2, fanOut: 3) { level, value in
            log.append("\(level):\(value)")
            return value
        }
        let report = await tree.run(1, options: .init(concurrencyLimit: 1, order: .breadthFirst))
        #expect(report.succeededCount == 13)
        // One worker takes ready items first in, first out: level by level, siblings in order.
        #expect(
            log.all == [
                "0:1", "1:3", "1:4", "1:5", "2:9", "2:10", "2:11", "2:12", "2:13", "2:14", "2:15",
                "2:16", "2:17",
            ])
    }

    @Test("depth first: an item's children go first, siblings still in order")
    func depthFirst() async {
        let log = Log()
        let tree = treeMakeUniform(depth: 2, fanOut: 2) { level, value in
            log.append("\(level):\(value)")
            return value
        }
        let options = OperationTreeOptions(concurrencyLimit: 1)
        #expect(options.order == .depthFirst)  // the default
        let report = await tree.run(1, options: options)
        #expect(report.succeededCount == 7)
        #expect(log.all == ["0:1", "1:2", "2:4", "2:5", "1:3", "2:6", "2:7"])
    }

    @Test("stress: many runs of one tree at once, all complete with the right counts")
    func concurrentRuns() async {
        let tree = treeMakeUniform(depth: 3, fanOut: 4) { _, value in value }
        let reports = await withTaskGroup(of: OperationTreeReport.self) { group in
            for limit in 1...12 {
                group.addTask { await tree.run(limit, options: .init(concurrencyLimit: limit)) }
            }
            var reports: [OperationTreeReport] = []
            for await report in group { reports.append(report) }
            return reports
        }
        #expect(reports.count == 12)
        for report in reports {
            #expect(report.isSuccess)
            #expect(report.succeededCount == 1 + 4 + 16 + 64)
        }
    }
}
