import ActionPipe
import ActionPipeTesting
import Testing

@Suite("OperationTree: an injected clock runs retries and timeouts in virtual time")
struct TreeClockTests {
    @Test("a backoff of an hour per retry waits on the injected clock, not the wall clock")
    func backoffOnTestClock() async throws {
        struct Flaky: Error {}
        let clock = TestClock()
        let attempts = Counter()
        let node = OperationTreeNode(
            "flaky", objects: { (n: Int) in [n] },
            work: { (n: Int) async throws -> Int in
                attempts.increment()
                if attempts.value < 3 { throw Flaky() }
                return n * 10
            })
        var options = OperationTreeOptions(clock: clock)
        options.retry = OperationTreeRetryPolicy(
            maxAttempts: 3, backoff: .constant(.seconds(3600)))
        let run = Task { await node.run(4, options: options) }
        await clock.waitForSleepers(1)  // the first backoff
        #expect(attempts.value == 1)
        clock.advance(by: .seconds(3599))
        #expect(clock.sleeperCount == 1)  // not yet: one second short
        clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)  // the second backoff
        #expect(attempts.value == 2)
        clock.advance(by: .seconds(3600))
        let report = await run.value
        #expect(attempts.value == 3)
        #expect(report.retryCount == 2)
        #expect(report.succeededCount == 1)
        #expect(report.outcome == .completed)
        #expect(clock.now.offset == .seconds(7200))
    }

    @Test("an item timeout measured by the injected clock ends a call that never returns")
    func timeoutOnTestClock() async throws {
        let clock = TestClock()
        let started = Counter()
        let (calls, callStarted) = AsyncStream.makeStream(of: Void.self)
        let node = OperationTreeNode(
            "stuck", objects: { (n: Int) in [n] },
            work: { (n: Int) async throws -> Int in
                started.increment()
                callStarted.yield()
                try await Task.sleep(for: .seconds(86_400))  // a real day: must be cut short
                return n
            })
        var options = OperationTreeOptions(retry: .never, clock: clock)
        options.itemTimeout = .seconds(10)
        let run = Task { await node.run(1, options: options) }
        // The objects(for:) call before it has a timer too, gone once it returns: the clock
        // moves only when the work call runs and its own timer sleeps.
        var startedCalls = calls.makeAsyncIterator()
        await startedCalls.next()
        await clock.waitForSleepers(1)  // the work call's timer
        clock.advance(by: .seconds(10))
        let report = await run.value
        let failure = try #require(report.failures.first)
        #expect(
            failure.error as? OperationTreeError == .timedOut(node: "stuck", after: .seconds(10)))
        #expect(started.value == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test("a call that finishes before its timeout leaves no sleeper behind")
    func fastCallCancelsItsTimer() async {
        let clock = TestClock()
        let node = OperationTreeNode("fast", objects: { (n: Int) in [n] }, work: { $0 + 1 })
        var options = OperationTreeOptions(clock: clock)
        options.itemTimeout = .seconds(10)
        let report = await node.run(1, options: options)
        #expect(report.succeededCount == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test("cancelling a run while it waits out a backoff on the test clock ends it")
    func cancelDuringVirtualBackoff() async {
        struct Failing: Error {}
        let clock = TestClock()
        let node = OperationTreeNode(
            "failing", objects: { (n: Int) in [n] },
            work: { (_: Int) async throws -> Int in throw Failing() })
        var options = OperationTreeOptions(clock: clock)
        options.retry = OperationTreeRetryPolicy(maxAttempts: 5, backoff: .constant(.seconds(60)))
        let run = Task { await node.run(1, options: options) }
        await clock.waitForSleepers(1)
        run.cancel()
        let report = await run.value
        #expect(report.outcome == .cancelled)
        #expect(clock.sleeperCount == 0)
    }
}
