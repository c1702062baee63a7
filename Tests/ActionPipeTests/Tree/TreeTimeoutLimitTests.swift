import ActionPipe
import ActionPipeTesting
import Testing

@testable import ActionPipeTree

/// Waits, yielding, until `condition` holds; `false` if it did not within a minute. For a
/// state the code under test reaches by itself (no timing is asserted).
func treeEventually(_ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        await Task.yield()
    }
    return true
}

/// A timed-out call that ignores cancellation keeps its slot until it really returns: the
/// concurrency limit counts it.
///
/// Each spec runs a `_TreeRunner` directly, to see the moment the worker holds its slot for
/// the timed-out call (`_TreeRunState.timedOutRunning`): either that, or the call the limit
/// should have held back, happens first, so the spec never waits on time.
@Suite("Tree: a timed-out call keeps its slot", .hangBound)
struct TreeTimeoutLimitTests {
    private static func options(_ clock: TestClock, retry: OperationTreeRetryPolicy)
        -> OperationTreeOptions
    {
        var options = OperationTreeOptions(concurrencyLimit: 1, retry: retry)
        options.itemTimeout = .seconds(10)
        options.clock = clock
        return options
    }

    @Test("limit 1: the next item waits until the timed-out call has returned")
    func nextItemWaits() async {
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
        let settled = await treeEventually {
            later.value > 0 || runner.state.withLock { $0.timedOutRunning } == 1
        }
        #expect(settled)
        #expect(later.value == 0)  // item 1 has not started beside the timed-out call
        release.open()
        let report = await task.value
        #expect(gauge.peak == 1)
        #expect(later.value == 1)
        #expect(report.succeededCount == 1)
        #expect(report.failures.count == 1)
        #expect(
            report.failures.first?.error as? OperationTreeError
                == .timedOut(node: "n", after: .seconds(10)))
        #expect(runner.state.withLock { $0.timedOutRunning } == 0)
    }

    @Test("a retry waits until the attempt that timed out has returned")
    func retryWaits() async {
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
        let settled = await treeEventually {
            attempts.value > 1 || runner.state.withLock { $0.timedOutRunning } == 1
        }
        #expect(settled)
        #expect(attempts.value == 1)  // no second attempt beside the first
        release.open()
        let report = await task.value
        #expect(gauge.peak == 1)
        #expect(attempts.value == 2)
        #expect(report.succeededCount == 1)
        #expect(report.retryCount == 1)
        #expect(report.failures.isEmpty)
    }

    @Test("a sibling's objects(for:) waits until the objects(for:) that timed out has returned")
    func nextObjectsWaits() async throws {
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
        let settled = await treeEventually {
            second.value > 0 || runner.state.withLock { $0.timedOutRunning } == 1
        }
        #expect(settled)
        #expect(second.value == 0)  // not beside the call that timed out
        release.open()
        let report = await task.value
        #expect(gauge.peak == 1)
        #expect(second.value == 1)
        #expect(report.failures.map(\.stage) == [.objects])
        #expect(report.counts(for: sibling).succeeded == 1)
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
