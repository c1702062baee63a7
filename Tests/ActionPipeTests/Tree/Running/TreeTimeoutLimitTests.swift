import ActionPipe
import ActionPipeTesting
import Testing

@testable import ActionPipeTree

/// A timed-out call that ignores cancellation does not hold the run: it runs on outside the
/// limits, and the next item, the retry and the next `objects(for:)` start without it (a
/// request that never returns must not hang the run; the demo's scenario 33).
@Suite("Tree: a timed-out call that ignores cancellation does not hold the run", .hangBound)
struct TreeTimeoutLimitTests {
    private static func options(_ clock: TestClock, retry: OperationTreeRetryPolicy)
        -> OperationTreeOptions
    {
        var options = OperationTreeOptions(concurrencyLimit: 1, retry: retry)
        options.itemTimeout = .seconds(10)
        options.clock = clock
        return options
    }

    @Test("limit 1: the next item starts while the timed-out call runs on")
    func nextItemGoesOn() async {
        let clock = TestClock()
        let gauge = TreeConcurrencyGauge()
        let entered = TreeGate()
        let release = TreeGate()
        let later = Counter()
        let node = OperationTreeNode(
            "n", objects: { (n: Int) -> [Int] in Array(0..<n) },
            work: { (n: Int) -> Int in
                await gauge.measure {
                    if n == 0 {
                        entered.open()
                        await release.wait()  // ignores cancellation
                    } else {
                        later.increment()
                    }
                    return n
                }
            })
        let runner = _TreeRunner(
            root: node, options: Self.options(clock, retry: .never), events: nil)
        let task = Task { await runner.run(2) }
        await entered.wait()
        #expect(await clock.waitForSleepers(1))  // item 0's timer
        clock.advance(by: .seconds(10))
        let report = await task.value  // item 0's call is still blocked
        #expect(gauge.peak == 2)  // it runs on beside item 1, outside the limit
        #expect(later.value == 1)
        #expect(report.succeededCount == 1)
        #expect(report.failures.count == 1)
        #expect(
            report.failures.first?.error as? OperationTreeError
                == .timedOut(node: "n", after: .seconds(10)))
        release.open()
    }

    @Test("a retry starts while the attempt that timed out runs on")
    func retryGoesOn() async {
        let clock = TestClock()
        let gauge = TreeConcurrencyGauge()
        let entered = TreeGate()
        let release = TreeGate()
        let attempts = Counter()
        let node = OperationTreeNode(
            "n", objects: { (n: Int) -> [Int] in [n] },
            work: { (n: Int) -> Int in
                attempts.increment()
                return await gauge.measure {
                    if attempts.value == 1 {
                        entered.open()
                        await release.wait()  // ignores cancellation
                    }
                    return n
                }
            })
        let runner = _TreeRunner(
            root: node,
            options: Self.options(clock, retry: .init(maxAttempts: 2, backoff: .immediate)),
            events: nil)
        let task = Task { await runner.run(1) }
        await entered.wait()
        #expect(await clock.waitForSleepers(1))  // the first attempt's timer
        clock.advance(by: .seconds(10))
        let report = await task.value  // the first attempt is still blocked
        #expect(gauge.peak == 2)
        #expect(attempts.value == 2)
        #expect(report.succeededCount == 1)
        #expect(report.retryCount == 1)
        #expect(report.failures.isEmpty)
        release.open()
    }

    @Test("a sibling's objects(for:) starts while the objects(for:) that timed out runs on")
    func nextObjectsGoOn() async throws {
        let clock = TestClock()
        let gauge = TreeConcurrencyGauge()
        let entered = TreeGate()
        let release = TreeGate()
        let second = Counter()
        let parent = OperationTreeNode(
            "parent", objects: { (n: Int) -> [Int] in [n] }, work: { (n: Int) -> Int in n })
        let first = OperationTreeNode(
            "first",
            objects: { (n: Int) -> [Int] in
                await gauge.measure {
                    entered.open()
                    await release.wait()  // ignores cancellation
                    return [n]
                }
            }, work: { (n: Int) -> Int in n })
        let sibling = OperationTreeNode(
            "second",
            objects: { (n: Int) -> [Int] in
                await gauge.measure {
                    second.increment()
                    return [n]
                }
            }, work: { (n: Int) -> Int in n })
        try parent.addChild(first)
        try parent.addChild(sibling)
        let runner = _TreeRunner(
            root: parent, options: Self.options(clock, retry: .never), events: nil)
        let task = Task { await runner.run(1) }
        await entered.wait()
        #expect(await clock.waitForSleepers(1))  // the timer of first's objects(for:)
        clock.advance(by: .seconds(10))
        let report = await task.value  // first's objects(for:) is still blocked
        #expect(gauge.peak == 2)
        #expect(second.value == 1)
        #expect(report.failures.map(\.stage) == [.objects])
        #expect(report.counts(for: sibling).succeeded == 1)
        release.open()
    }

    @Test("a run whose only item timed out still ends while the call runs on")
    func runEndsBesideTheCall() async {
        let clock = TestClock()
        let entered = TreeGate()
        let release = TreeGate()
        let node = OperationTreeNode(
            "n", objects: { (n: Int) -> [Int] in [n] },
            work: { (n: Int) -> Int in
                entered.open()
                await release.wait()  // ignores cancellation
                return n
            })
        let task = Task { await node.run(1, options: Self.options(clock, retry: .never)) }
        await entered.wait()
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(10))
        let report = await task.value  // the call still runs: nothing else waits for it
        #expect(report.outcome == .completed)
        #expect(report.failures.count == 1)
        release.open()
    }
}
