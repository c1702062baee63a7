import ActionPipe
import Foundation
import Testing

/// An event for the misuse catalogue.
struct MisuseEvent: BusEvent {
    let text: String
}

/// A subscriber or owner whose lifetime the misuse tests decide.
final class MisuseObject: Sendable {}

/// Rows of the misuse catalogue (Docs/Reliability.md) that no part's own suite covers.
@Suite("Reliability: misuse has a defined, harmless result", .hangBound)
struct MisuseCatalogueTests {
    // MARK: Operation tree

    @Test("a node added as its own child is a cycle: refused, the node unchanged")
    func treeSelfChild() async {
        let node = OperationTreeNode("self", objects: { (n: Int) in [n] }, work: { $0 })
        #expect(throws: OperationTreeError.cycle(parent: "self", child: "self")) {
            try node.addChild(node)
        }
        #expect(node.childNames.isEmpty)
        #expect(await node.run(1).succeededCount == 1)
    }

    @Test("the same child added twice to one parent runs twice under it")
    func treeChildTwice() async throws {
        let calls = TestLock(0)
        let parent = OperationTreeNode("parent", objects: { (n: Int) in [n] }, work: { $0 })
        let child = OperationTreeNode(
            "child", objects: { (n: Int) in [n] },
            work: { (n: Int) in calls.withLock { $0 += 1 } })
        try parent.addChild(child)
        try parent.addChild(child)
        #expect(parent.childNames == ["child", "child"])
        let report = await parent.run(1)
        #expect(report.isSuccess && report.succeededCount == 3)
        #expect(calls.withLock { $0 } == 2)
    }

    @Test("cancelling a run twice, or after it ended, changes nothing")
    func treeCancelTwice() async {
        let node = OperationTreeNode(
            "slow", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) in try await Task.sleep(for: .seconds(10)) })
        let run = node.start(4, options: .init(concurrencyLimit: 1))
        run.cancel()
        run.cancel()
        let report = await run.report
        #expect(report.outcome == .cancelled)
        run.cancel()
        #expect(await run.report.outcome == .cancelled)
        #expect(report.failures.isEmpty)
    }

    @Test("a CancellationError thrown by work while the run goes on is an ordinary failure")
    func treeCancellationErrorIsAFailure() async {
        let node = OperationTreeNode(
            "liar", objects: { (n: Int) in [n] },
            work: { (n: Int) -> Int in throw CancellationError() })
        let report = await node.run(1, options: .init(retry: .init(maxAttempts: 2)))
        #expect(report.outcome == .completed)
        #expect(report.failures.count == 1)
        #expect(report.failures.first?.attempts == 2)
        #expect(report.failures.first?.error is CancellationError)
    }

    // MARK: Plumbing

    @Test("removing a port twice, or one that was never added, returns false")
    func plumbRemoveTwice() throws {
        let port = PlumbingPort<Int>(1)
        let stranger = PlumbingPort<Int>(2)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        #expect(plumber.removePort(port))
        #expect(!plumber.removePort(port))
        #expect(!plumber.removePort(stranger))
        #expect(plumber.portNumbers.isEmpty)
        #expect(!port.isConnected)
    }

    @Test(
        "ports whose stages await each other's process wait until a caller is cancelled",
        .hangBound)
    func plumbMutualWaitEndsOnCancel() async throws {
        let first = PlumbingPort<Int>(1)
        let second = PlumbingPort<Int>(2)
        let (entered, enter) = AsyncStream.makeStream(of: Int.self)
        // Each stage waits here until both ports hold their packet, so the two always end
        // up waiting for each other (before, the test only sometimes did, and then hung: a
        // cancelled caller's queued packet waited for the drain, which never came).
        let bothHeld = TAGate()
        let inner = TestLock<PlumbingOutcome<Int>?>(nil)
        let one = try PipelinePlumber<Int>(name: "one").addPort(first)
        one.addStage("ask two") { [weak second] packet in
            if packet.payload == 0, let second {
                enter.yield(1)
                await bothHeld.wait()
                let outcome = await second.process(1)
                inner.withLock { $0 = outcome }
            }
            return .pass
        }
        let two = try PipelinePlumber<Int>(name: "two").addPort(second)
        two.addStage("ask one") { [weak first] packet in
            if packet.payload == 0, let first {
                enter.yield(2)
                await bothHeld.wait()
                _ = await first.process(1)
            }
            return .pass
        }
        let a = Task { await first.process(0) }
        let b = Task { await second.process(0) }
        var arrivals = entered.makeAsyncIterator()
        _ = await arrivals.next()
        _ = await arrivals.next()
        await bothHeld.open()
        try await Task.sleep(for: .milliseconds(20))  // usually both wait now; either way:
        // Nothing moves until a caller gives up. Cancelling `a` ends its wait for `second`
        // at once; `a`'s packet then ends, `first` frees, and `b`'s packet gets its turn.
        a.cancel()
        let outcomeA = await a.value
        let outcomeB = await b.value
        #expect(outcomeB.wasDelivered)
        #expect(outcomeA.stop?.reason?.isCancelled == true)
        let innerOutcome = try #require(inner.withLock { $0 })
        #expect(innerOutcome.stop?.reason?.isCancelled == true)
        #expect(innerOutcome.stop?.stagesPassed == 0)
        _ = (one, two)
    }

    // MARK: Observable state

    @Test("dropping a token does not end the observation")
    func stateDroppedToken() {
        let property = ObservedProperty(0)
        let seen = TestLock<[Int]>([])
        do {
            _ = property.observe { value in seen.withLock { $0.append(value) } }
        }
        property.value = 1
        #expect(seen.withLock { $0 } == [1])
        #expect(property.observerCount == 1)
    }

    @Test("an observer capturing its own state strongly keeps it alive until cancelled")
    func stateStrongSelfCapture() {
        weak var weakState: MisuseCapturingState?
        var token: RegistrationToken?
        do {
            let state = MisuseCapturingState()
            weakState = state
            token = state.count.observe { _ in _ = state.count.label }
        }
        #expect(weakState != nil)  // the documented retain cycle: use observe(by:) instead
        #expect(token?.cancel() == true)
        #expect(weakState == nil)  // cancelling releases the handler and breaks the cycle
        #expect(token?.cancel() == false)
    }

    @Test("cancelling a token after its state went away returns false")
    func stateCancelAfterStateGone() {
        var token: RegistrationToken?
        do {
            let state = MisuseCapturingState()
            token = state.count.observe { _ in }
        }
        #expect(token?.isActive == false)
        #expect(token?.cancel() == false)
    }

    // MARK: Event bus

    @Test("publishing after every subscriber went away reaches no one and is not an error")
    func busPublishAfterSubscribersGone() {
        let bus = EventBus(name: "misuse")
        let seen = TestLock(0)
        do {
            let subscriber = MisuseObject()
            bus.subscribe(BusTopic(MisuseEvent.self), owner: subscriber) { _, _ in
                seen.withLock { $0 += 1 }
            }
            #expect(bus.publish(MisuseEvent(text: "alive")).handledCount == 1)
        }
        #expect(bus.publish(MisuseEvent(text: "gone")).isEmpty)
        #expect(seen.withLock { $0 } == 1)
    }

    @Test("a subscription token cancelled after its bus went away returns false")
    func busCancelAfterBusGone() {
        var token: RegistrationToken?
        do {
            let bus = EventBus(name: "short-lived")
            token = bus.subscribe(BusTopic(MisuseEvent.self)) { _ in }
            #expect(token?.isActive == true)
        }
        #expect(token?.cancel() == false)
    }

    // MARK: Core

    @Test("an async call from a task that is already cancelled runs no handler and throws")
    func coreCallFromCancelledTask() async {
        let pipe = ActionPipe(name: "cancelled caller")
        let ran = TestLock(false)
        pipe.on(\.sharedAsyncPing) { process in
            ran.withLock { $0 = true }
            return process.arguments
        }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipe.sharedAsyncPing(1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.withLock { $0 })
    }
}

/// A state whose observer captures it strongly (the documented misuse).
final class MisuseCapturingState: ObservableState {
    let count = ObservedProperty(0, label: "count")
}

extension Actions {
    /// The reliability suites' async action.
    var sharedAsyncPing: AsyncAction<Int, Int> { .init() }
}
