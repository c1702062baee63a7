import ActionPipe
import ActionPipeTesting
import Foundation
import Synchronization
import Testing

@testable import ActionPipeTree

@Suite("OperationTree: a run's timeline, as Chrome trace-event JSON")
struct TreeTimelineTests {
    /// The trace's `traceEvents`, parsed by Foundation, after checking the top level.
    private func parse(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let top = try #require(object as? [String: Any])
        #expect(top["displayTimeUnit"] as? String == "ms")
        return try #require(top["traceEvents"] as? [[String: Any]])
    }

    @Test("every item appears once per attempt; retries and the failure are marked")
    func oncePerAttempt() async throws {
        let clock = TestClock()
        let attempts = TestLock<[Int: Int]>([:])
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        // Object 1 succeeds at once, 2 on its second attempt, 3 never.
        let flaky = OperationTreeNode(
            "flaky", objects: { (_: Int) in [1, 2, 3] },
            work: { (n: Int) async throws -> Int in
                let attempt = attempts.withLock { counts in
                    counts[n, default: 0] += 1
                    return counts[n]!
                }
                if n == 3 || (n == 2 && attempt == 1) { throw TreeTestError(what: "\(n)") }
                return n
            })
        try root.addChild(flaky)
        var options = OperationTreeOptions(concurrencyLimit: 1, clock: clock)
        options.retry = OperationTreeRetryPolicy(maxAttempts: 2, backoff: .constant(.seconds(10)))
        let run = root.start(0, options: options, buffering: .unbounded)
        // The recorder stamps an event when it reads it, so the clock moves on only after
        // the recorder has read the retry that started the backoff.
        let (retries, retryRead) = AsyncStream.makeStream(of: Void.self)
        let recording = Task {
            var timeline = OperationTreeTimeline(clock: clock)
            for await event in run.events {
                timeline.record(event)
                if case .retrying = event { retryRead.yield() }
            }
            retryRead.finish()
            return timeline
        }
        var retriesRead = retries.makeAsyncIterator()
        for _ in 0..<2 {  // object 2's backoff, then object 3's
            await clock.waitForSleepers(1)
            await retriesRead.next()
            clock.advance(by: .seconds(10))
        }
        let report = await run.report
        let timeline = await recording.value
        #expect(report.retryCount == 2 && report.failures.count == 1)

        let events = try parse(timeline.chromeTraceJSON)
        let slices = events.filter { $0["ph"] as? String == "X" }
        var seen: [String: Int] = [:]
        for slice in slices {
            for key in ["name", "cat", "ts", "dur", "pid", "tid", "args"] {
                #expect(slice[key] != nil, "slice without \(key): \(slice)")
            }
            let args = try #require(slice["args"] as? [String: Any])
            let item = try #require(args["item"] as? Int)
            let attempt = try #require(args["attempt"] as? Int)
            seen["\(item)/\(attempt)", default: 0] += 1
        }
        // Items: 1 the root, 2…4 objects 1…3 of `flaky`.
        #expect(seen == ["1/1": 1, "2/1": 1, "3/1": 1, "3/2": 1, "4/1": 1, "4/2": 1])
        let outcomes = slices.compactMap { ($0["args"] as? [String: Any])?["outcome"] as? String }
        #expect(outcomes.filter { $0 == "produced" }.count == 3)
        #expect(outcomes.filter { $0 == "retried" }.count == 2)
        #expect(outcomes.filter { $0 == "failed" }.count == 1)
        let instants = events.filter { $0["ph"] as? String == "i" }
        #expect(
            instants.compactMap { $0["cat"] as? String }.sorted() == ["failure", "retry", "retry"])
        #expect(instants.contains { $0["name"] as? String == "failed flaky#4(3)" })
        // A retried attempt starts again only after its backoff, on the test clock.
        let retried = timeline.slices.filter { $0.item.id == 3 }
        #expect(retried.map(\.attempt) == [1, 2])
        #expect(try #require(retried[0].end) < retried[1].start)
        #expect(retried[1].start >= .seconds(10))
        #expect(timeline.laneCount == 1)
    }

    @Test("lanes never overlap, and never outnumber the concurrency limit")
    func lanesNeverOverlap() async throws {
        let tree = treeMakeUniform(depth: 2, fanOut: 6) { _, value in
            try await Task.sleep(for: .milliseconds(value % 3))
            return value
        }
        let run = tree.start(1, options: .init(concurrencyLimit: 3), buffering: .unbounded)
        var timeline = OperationTreeTimeline()
        await timeline.record(run.events)
        let report = await run.report
        #expect(report.isSuccess)
        #expect(timeline.slices.count == 1 + 6 + 36)
        #expect(timeline.slices.allSatisfy { $0.outcome == .produced && $0.end != nil })
        #expect((1...3).contains(timeline.laneCount))
        for lane in 1...timeline.laneCount {
            let onLane = timeline.slices.filter { $0.lane == lane }.sorted { $0.start < $1.start }
            for (earlier, later) in zip(onLane, onLane.dropFirst()) {
                #expect(try #require(earlier.end) <= later.start)
            }
        }
        let events = try parse(timeline.chromeTraceJSON)
        let tids = Set(
            events.filter { $0["ph"] as? String == "X" }.compactMap { $0["tid"] as? Int })
        #expect(tids == Set(1...timeline.laneCount))
        let lanes = events.filter { $0["name"] as? String == "thread_name" }
        #expect(lanes.count == timeline.laneCount)
    }

    @Test("names and objects with quotes, backslashes and line breaks stay valid JSON")
    func escapesStrings() async throws {
        let node = OperationTreeNode(
            "say \"hi\"\\", objects: { (_: Int) in ["a\nb\t\u{1}"] }, work: { $0 })
        let run = node.start(0)
        var timeline = OperationTreeTimeline()
        await timeline.record(run.events)
        let events = try parse(timeline.chromeTraceJSON)
        let slice = try #require(events.first { $0["ph"] as? String == "X" })
        let args = try #require(slice["args"] as? [String: Any])
        #expect(slice["cat"] as? String == "say \"hi\"\\")
        #expect(args["object"] as? String == "a\nb\t\u{1}")
        #expect(args["outcome"] as? String == "produced")
    }

    @Test("an attempt still running when the recording stops is unfinished")
    func unfinishedAttempt() async throws {
        let gate = TreeGate()
        let node = OperationTreeNode(
            "waits", objects: { (n: Int) in [n] },
            work: { (n: Int) async -> Int in
                await gate.wait()
                return n
            })
        let run = node.start(1)
        var timeline = OperationTreeTimeline()
        for await event in run.events {
            timeline.record(event)
            if case .started = event { break }  // the attempt is waiting at the gate
        }
        #expect(timeline.slices.map(\.outcome) == [.unfinished])
        #expect(timeline.slices.first?.end == nil)
        let events = try parse(timeline.chromeTraceJSON)
        let slice = try #require(events.first { $0["ph"] as? String == "X" })
        #expect((slice["args"] as? [String: Any])?["outcome"] as? String == "unfinished")
        gate.open()
        #expect(await run.report.isSuccess)
    }
}

/// Timestamps far from the run's start are written exactly, never trapping on overflow.
@Suite("OperationTree: trace timestamps of any size")
struct TreeTimelineTimestampTests {
    @Test(
        "microseconds are exact for small, second-sized and 300,000-year durations",
        arguments: [
            (Duration.nanoseconds(1_500_250), "1500.250"),
            (.zero, "0.000"),
            (.seconds(2) + .nanoseconds(7), "2000000.007"),
            (.seconds(10_000_000_000_000), "10000000000000000000.000"),
            (.seconds(-3), "0.000"),
        ])
    func micros(duration: Duration, expected: String) {
        #expect(OperationTreeTimeline.micros(duration) == expected)
    }
}
