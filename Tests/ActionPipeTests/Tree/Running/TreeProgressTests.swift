import ActionPipe
import ActionPipeTesting
import Foundation
import Synchronization
import Testing

@Suite("Tree: structured runs with a progress callback", .hangBound)
struct TreeProgressTests {
    @Test("the callback sees each event in step with the work: started before, produced after")
    func inStepWithWork() async throws {
        let log = Log()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in [n] },
            work: { (n: Int) -> Int in
                log.append("work root \(n)")
                return n * 10
            })
        let leaf = OperationTreeNode(
            "leaf", objects: { (n: Int) in [n, n + 1] },
            work: { (n: Int) -> String in
                log.append("work leaf \(n)")
                return "leaf \(n)"
            })
        try root.addChild(leaf)
        let report = await root.run(1, options: .init(concurrencyLimit: 1)) { event in
            log.append("\(event)")
        }
        #expect(report.isSuccess)
        #expect(
            log.all == [
                "started root#1(1) attempt 1", "work root 1", "produced root#1(1) -> 10",
                "started leaf#2(10) attempt 1", "work leaf 10", "produced leaf#2(10) -> leaf 10",
                "finished leaf#2(10)",
                "started leaf#3(11) attempt 1", "work leaf 11", "produced leaf#3(11) -> leaf 11",
                "finished leaf#3(11)",
                "finished root#1(1)",
            ])
    }

    @Test("with items running at once, each item's work lies between its started and produced")
    func inStepConcurrently() async throws {
        let log = Log()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) -> Int in
                log.append("work \(n)")
                await Task.yield()
                return n
            })
        let report = await root.run(100, options: .init(concurrencyLimit: 4)) { event in
            switch event {
            case .started(let item, _): log.append("started \(item.object)")
            case .produced(let item, _): log.append("produced \(item.object)")
            case .finished(let item, _): log.append("finished \(item.object)")
            default: log.append("unexpected \(event)")
            }
        }
        #expect(report.isSuccess)
        let lines = log.all
        #expect(lines.count == 100 * 4)
        for n in 0..<100 {
            let positions = ["started", "work", "produced", "finished"].map { step in
                lines.firstIndex(of: "\(step) \(n)") ?? -1
            }
            #expect(
                positions.allSatisfy { $0 >= 0 } && positions == positions.sorted(), "item \(n)")
        }
    }

    @Test("the callback is never entered while another call of it runs")
    func neverConcurrent() async throws {
        let inside = Atomic<Int>(0)
        let mostInside = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
        let gauge = TreeConcurrencyGauge()
        let arrived = Atomic<Int>(0)
        let bothIn = TreeGate()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) -> Int in
                await gauge.measure {
                    if n < 2 {
                        // Items 0 and 1 wait for each other, so two workers surely overlap
                        // (however the machine schedules them) while the callback runs.
                        if arrived.add(1, ordering: .sequentiallyConsistent).newValue == 2 {
                            bothIn.open()
                        }
                        await bothIn.wait()
                    }
                    await Task.yield()
                    return n
                }
            })
        let report = await root.run(200, options: .init(concurrencyLimit: 4)) { _ in
            let now = inside.add(1, ordering: .sequentiallyConsistent).newValue
            _ = mostInside.max(now, ordering: .sequentiallyConsistent)
            // Long enough that an unserialised delivery would overlap another worker's.
            Thread.sleep(forTimeInterval: 0.000_2)
            calls.add(1, ordering: .sequentiallyConsistent)
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        #expect(report.succeededCount == 200)
        #expect(gauge.peak > 1)  // the items did run at once
        #expect(calls.load(ordering: .sequentiallyConsistent) == 200 * 3)
        #expect(mostInside.load(ordering: .sequentiallyConsistent) == 1)
    }

    @Test("cancelling the calling task cancels the run; no event comes after the report")
    func cancelCallingTask() async throws {
        let started = Counter()
        let gate = TreeGate()
        let events = Log()
        let node = OperationTreeNode(
            "work", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) in
                started.increment()
                if started.value == 2 { gate.open() }
                try await Task.sleep(for: .seconds(3_600))  // only cancellation ends it
            })
        let task = Task {
            await node.run(100, options: .init(concurrencyLimit: 2)) { events.append("\($0)") }
        }
        await gate.wait()
        task.cancel()
        let report = await task.value
        #expect(report.outcome == .cancelled)
        #expect(report.notStartedCount == 98)
        let atReport = events.all
        #expect(atReport.count == 2)  // the two `started`: a cancelled call has no more
        #expect(atReport.allSatisfy { $0.hasPrefix("started work#") })
        try await Task.sleep(for: .milliseconds(50))
        #expect(events.all == atReport)
    }

    @Test("work learns its attempt: 1, 2, 3 for a call that fails twice")
    func attemptNumbers() async throws {
        let clock = TestClock()
        let seen = Log()
        let node = OperationTreeNode(
            "flaky", objects: { (n: Int) in [n] },
            work: { (n: Int, context: OperationTreeWorkContext) -> Int in
                seen.append("work \(context.attempt) of \(context.maxAttempts)")
                if context.attempt < 3 { throw TreeTestError(what: "attempt \(context.attempt)") }
                return n
            })
        let options = OperationTreeOptions(
            retry: .init(maxAttempts: 3, backoff: .constant(.seconds(60))), clock: clock)
        let run = Task {
            await node.run(7, options: options) { event in
                if case .started(_, let attempt) = event { seen.append("started \(attempt)") }
            }
        }
        #expect(await clock.run(sleeps: 2))
        let report = await run.value
        #expect(report.isSuccess)
        #expect(report.retryCount == 2)
        #expect(
            seen.all == [
                "started 1", "work 1 of 3", "started 2", "work 2 of 3", "started 3", "work 3 of 3",
            ])
    }

    @Test("a provider's work(on:context:) learns its attempt; one with work(on:) still runs")
    func providerAttempts() async throws {
        struct Flaky: OperationTreeProvider {
            let seen: Log
            func objects(for input: Int) async throws -> [Int] { [input] }
            func work(on item: Int) async throws -> Int { item }
            func work(on item: Int, context: OperationTreeWorkContext) async throws -> Int {
                seen.append("attempt \(context.attempt)")
                if context.attempt < 2 { throw TreeTestError(what: "first") }
                return item
            }
        }
        struct Plain: OperationTreeProvider {
            func objects(for input: Int) async throws -> [Int] { [input, input + 1] }
            func work(on item: Int) async throws -> Int { item }
        }
        let seen = Log()
        let flaky = OperationTreeNode("flaky", provider: Flaky(seen: seen))
        let plain = OperationTreeNode("plain", provider: Plain())
        try flaky.addChild(plain)
        let report = await flaky.run(1)
        #expect(report.isSuccess)
        #expect(seen.all == ["attempt 1", "attempt 2"])
        #expect(report.counts(for: plain).succeeded == 2)
    }

    /// A scan that finds five jobs; job 3 always fails.
    private func scanAndJobs() throws -> (
        OperationTreeNode<String, [Int]>, OperationTreeNode<[Int], Int>
    ) {
        let scan = OperationTreeNode(
            "scan", objects: { (folder: String) in [folder] },
            work: { (_: String) in [1, 2, 3, 4, 5] })
        let job = OperationTreeNode(
            "job", objects: { (ids: [Int]) in ids },
            work: { (id: Int) -> Int in
                if id == 3 { throw TreeTestError(what: "job 3") }
                return id
            })
        try scan.addChild(job)
        return (scan, job)
    }

    @Test("the report counts per node: 6 succeeded is the scan and 5 jobs, told apart")
    func perNodeCounts() async throws {
        let (scan, job) = try scanAndJobs()
        let report = await scan.run("folder", options: .init(retry: .init(maxAttempts: 2)))
        #expect(report.succeededCount == 1 + 4)
        #expect(report.counts(for: scan).succeeded == 1)
        #expect(report.counts(for: job).succeeded == 4)
        #expect(
            report.counts(for: scan) == .init(succeeded: 1, failed: 0, retries: 0, notStarted: 0))
        #expect(
            report.counts(for: job) == .init(succeeded: 4, failed: 1, retries: 1, notStarted: 0))
        let elsewhere = OperationTreeNode("elsewhere", objects: { (n: Int) in [n] }, work: { $0 })
        #expect(
            report.counts(for: elsewhere)
                == .init(succeeded: 0, failed: 0, retries: 0, notStarted: 0))
        #expect(report.failures.allSatisfy { $0.belongs(to: job) && !$0.belongs(to: scan) })
    }

    @Test("items a fail-fast stop left unstarted are counted under their node")
    func perNodeNotStarted() async throws {
        let (scan, job) = try scanAndJobs()
        let report = await scan.run(
            "folder",
            options: .init(concurrencyLimit: 1, retry: .never, failFast: true))
        #expect(report.outcome == .stoppedByFailure)
        #expect(
            report.counts(for: job) == .init(succeeded: 2, failed: 1, retries: 0, notStarted: 2))
        #expect(report.counts(for: scan).notStarted == 0)
        #expect(report.notStartedCount == 2)
    }

    @Test("a failure's summary is for users; the advice for developers is its hint")
    func summaryAndHint() async throws {
        let (scan, _) = try scanAndJobs()
        let report = await scan.run("folder", options: .init(retry: .init(maxAttempts: 2)))
        let failure = try #require(report.failures.first)
        #expect(
            failure.summary
                == "node 'job': work on 3 failed after 2 attempts: test failure: job 3; "
                + "its subtree was skipped")
        #expect("\(failure)" == failure.summary)
        #expect(!failure.summary.contains("OperationTreeOptions"))
        #expect(failure.developerHint.contains("OperationTreeOptions.retry"))
        #expect(failure.developerHint.contains("fix the provider"))
    }

    @Test("a timed-out call's summary says so, without the developer's remedy")
    func timeoutSummary() async throws {
        let clock = TestClock()
        let (calls, callStarted) = AsyncStream.makeStream(of: Void.self)
        let node = OperationTreeNode(
            "slow", objects: { (n: Int) in [n] },
            work: { (n: Int) in
                callStarted.yield()
                try await Task.sleep(for: .seconds(86_400))  // a real day: must be cut short
                return n
            })
        var options = OperationTreeOptions(retry: .never, clock: clock)
        options.itemTimeout = .seconds(10)
        let run = Task { await node.run(1, options: options) }
        // The objects(for:) call has a timer too, gone once it returns: wait for the work's.
        var startedCalls = calls.makeAsyncIterator()
        await startedCalls.next()
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        let failure = try #require(await run.value.failures.first)
        #expect(
            failure.summary
                == "node 'slow': work on 1 failed after 1 attempt: timed out after 10.0 seconds; "
                + "its subtree was skipped")
        #expect(failure.developerHint.contains("OperationTreeOptions.itemTimeout"))
    }
}
