import ActionPipe
import Foundation
import Testing

/// A stage object whose lifetime the leak tests watch.
final class OwnerReleaseTrackedStage: AsyncPlumbingStage {
    func receive(_ packet: inout PlumbingPacket<Int>) async throws -> PlumbingVerdict {
        await Task.yield()
        return .pass
    }
}

/// A provider object whose lifetime the leak tests watch.
final class OwnerReleaseTrackedProvider: OperationTreeProvider {
    let fails: Bool
    init(fails: Bool) { self.fails = fails }
    func objects(for input: Int) async throws -> [Int] { Array(0..<input) }
    func work(on item: Int) async throws -> Int {
        if fails { throw TreeTestError(what: "work \(item)") }
        return item
    }
}

/// Waits (bounded) until `gone` holds: tasks may wind down a moment after their result.
func ownerReleaseEventually(_ gone: () -> Bool) async {
    _ = await eventually { gone() }
}

/// Leaks the parts' own suites do not cover: every object an owner drops must go away.
@Suite("Reliability: dropped owners release everything", .hangBound)
struct OwnerReleaseTests {
    @Test(
        "operation tree: nodes, providers and captures are freed after any kind of run",
        arguments: ["success", "failure", "cancel"])
    func treeNodesFreed(_ ending: String) async throws {
        weak var weakRoot: OperationTreeNode<Int, Int>?
        weak var weakChild: OperationTreeNode<Int, Int>?
        weak var weakGrandchild: OperationTreeNode<Int, String>?
        weak var weakProvider: OwnerReleaseTrackedProvider?
        weak var weakCaptured: Tracked?
        weak var weakRun: OperationTreeRun?
        do {
            let provider = OwnerReleaseTrackedProvider(fails: ending == "failure")
            let captured = Tracked("captured")
            let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
            let child = OperationTreeNode("child", provider: provider)
            let grandchild = OperationTreeNode(
                "grandchild", objects: { (n: Int) in [n] },
                work: { (n: Int) -> String in
                    // An hour: only the cancellation ends it, however late it comes.
                    if ending == "cancel" { try await Task.sleep(for: .seconds(3_600)) }
                    return "\(captured.name) \(n)"
                })
            try root.addChild(child).addChild(grandchild)
            (weakRoot, weakChild, weakGrandchild) = (root, child, grandchild)
            (weakProvider, weakCaptured) = (provider, captured)
            let run = root.start(3, options: .init(concurrencyLimit: 2))
            weakRun = run
            if ending == "cancel" {
                for await event in run.events {
                    if case .started(let item, _) = event, item.node == "grandchild" {
                        run.cancel()
                    }
                }
            }
            let report = await run.report
            #expect(
                report.outcome
                    == (ending == "cancel" ? .cancelled : .completed))
            #expect(report.failures.isEmpty == (ending != "failure"))
        }
        await ownerReleaseEventually {
            weakRoot == nil && weakChild == nil && weakGrandchild == nil && weakProvider == nil
                && weakCaptured == nil && weakRun == nil
        }
        #expect(weakRoot == nil)
        #expect(weakChild == nil)
        #expect(weakGrandchild == nil)
        #expect(weakProvider == nil)
        #expect(weakCaptured == nil)
        #expect(weakRun == nil)
    }

    @Test("operation tree: a child node outlives its dropped parent only while someone holds it")
    func treeChildHeldByParent() throws {
        weak var weakChild: OperationTreeNode<Int, Int>?
        var root: OperationTreeNode<Int, Int>? = OperationTreeNode(
            "root", objects: { (n: Int) in [n] }, work: { $0 })
        do {
            let child = OperationTreeNode("child", objects: { (n: Int) in [n] }, work: { $0 })
            try root?.addChild(child)
            weakChild = child
        }
        #expect(weakChild != nil)  // the parent holds its children
        root = nil
        #expect(weakChild == nil)
    }

    @Test("plumbing: after a port's queue of async packets drains, dropping the owner frees all")
    func plumbQueueDrained() async throws {
        weak var weakPlumber: PipelinePlumber<Int>?
        weak var weakPort: PlumbingPort<Int>?
        weak var weakStage: OwnerReleaseTrackedStage?
        weak var weakCaptured: Tracked?
        do {
            let captured = Tracked("sink")
            let stage = OwnerReleaseTrackedStage()
            let port = PlumbingPort<Int>(1)
            let (done, finish) = AsyncStream.makeStream(of: Void.self)
            let plumber = try PipelinePlumber<Int>().addPort(port)
            plumber.addStage(stage)
            plumber.sink { packet in
                _ = captured.name
                if packet.payload == 9 { finish.yield() }
            }
            plumber.onStop { _ in _ = captured.name }
            (weakPlumber, weakPort, weakStage, weakCaptured) = (plumber, port, stage, captured)
            for value in 0..<10 { port.emit(value) }
            var iterator = done.makeAsyncIterator()
            _ = await iterator.next()
            #expect(await port.process(10).wasDelivered)
        }
        await ownerReleaseEventually {
            weakPlumber == nil && weakPort == nil && weakStage == nil && weakCaptured == nil
        }
        #expect(weakPlumber == nil)
        #expect(weakPort == nil)
        #expect(weakStage == nil)
        #expect(weakCaptured == nil)
    }

    @Test("plumbing: a cancelled process frees the plumber and its stages")
    func plumbCancelledProcess() async throws {
        weak var weakPlumber: PipelinePlumber<Int>?
        weak var weakCaptured: Tracked?
        do {
            let captured = Tracked("stage")
            let (entered, enter) = AsyncStream.makeStream(of: Void.self)
            let plumber = PipelinePlumber<Int>()
            plumber.addStage("sleep") { _ in
                _ = captured.name
                enter.yield()
                try await Task.sleep(for: .seconds(3_600))  // only cancellation ends it
                return .pass
            }
            (weakPlumber, weakCaptured) = (plumber, captured)
            let call = Task { await plumber.process(1, from: 1) }
            var iterator = entered.makeAsyncIterator()
            _ = await iterator.next()
            call.cancel()
            #expect(await call.value.stop?.reason?.error is CancellationError)
        }
        await ownerReleaseEventually { weakPlumber == nil && weakCaptured == nil }
        #expect(weakPlumber == nil)
        #expect(weakCaptured == nil)
    }

    @Test("observable state: a path does not keep replaced sub-states; dropping the root frees all")
    func statePathsFreeSubStates() {
        weak var weakOldMid: ModelStateMid?
        weak var weakOldLeaf: ModelStateLeaf?
        weak var weakRoot: ModelStateRoot?
        weak var weakCaptured: Tracked?
        weak var weakOwner: ModelStateOwner?
        do {
            let captured = Tracked("handler")
            let owner = ModelStateOwner()
            let root = ModelStateRoot(
                mid: ModelStateMid(id: 0, b: 0, leaf: ModelStateLeaf(id: 0, c: 0)))
            weakRoot = root
            weakOwner = owner
            weakCaptured = captured
            weakOldMid = root.mid.value
            weakOldLeaf = root.mid.value.leaf.value
            root.mid.then(\.leaf).then(\.c).observe { _ in _ = captured.name }
            root.mid.then(\.b).observe(owner: owner) { _, _ in }
            root.mid.value = ModelStateMid(id: 1, b: 1, leaf: ModelStateLeaf(id: 1, c: 1))
            #expect(weakOldMid == nil)  // the path's links hold the old sub-state weakly
            #expect(weakOldLeaf == nil)
            #expect(weakOwner != nil)
        }
        #expect(weakRoot == nil)
        #expect(weakCaptured == nil)
        #expect(weakOwner == nil)
    }

    @Test("observable state: an actor observer and a stream end with their property")
    func stateActorAndStreamFreed() async {
        weak var weakState: MisuseCapturingState?
        weak var weakLogger: OwnerReleaseLog?
        var stream: AsyncStream<Int>?
        do {
            let state = MisuseCapturingState()
            let logger = OwnerReleaseLog()
            weakState = state
            weakLogger = logger
            state.count.observe(.initial, on: logger) { logger, value in logger.add(value) }
            stream = state.count.values()
            state.count.value = 1
        }
        await ownerReleaseEventually { weakState == nil && weakLogger == nil }
        #expect(weakState == nil)
        #expect(weakLogger == nil)  // the actor is held weakly, its queue drained
        var values: [Int] = []
        for await value in stream! { values.append(value) }  // finished: the property is gone
        #expect(values == [1])
    }

    @Test("event bus: a union subscription and an executor subscription free their captures")
    func busUnionAndExecutorFreed() async {
        weak var weakBus: EventBus?
        weak var weakCaptured: Tracked?
        weak var weakSubscriber: MisuseObject?
        do {
            let bus = EventBus(name: "leaks")
            let captured = Tracked("union")
            let subscriber = MisuseObject()
            (weakBus, weakCaptured, weakSubscriber) = (bus, captured, subscriber)
            let key = BusTopic(MisuseEvent.self).key
            bus.subscribe(allOf: [key], owner: subscriber) { _, _ in _ = captured.name }
            bus.subscribe(
                BusTopic(MisuseEvent.self), owner: subscriber, on: .task
            ) { _, _ in _ = captured.name }
            _ = await bus.publishAndWait(MisuseEvent(text: "x"))
        }
        await ownerReleaseEventually {
            weakBus == nil && weakCaptured == nil && weakSubscriber == nil
        }
        #expect(weakBus == nil)
        #expect(weakCaptured == nil)
        #expect(weakSubscriber == nil)
    }

    @Test("core: an async handler's weak target and captures are freed after a call with the chain")
    func coreAsyncChainFreed() async throws {
        weak var weakFirst: ActionPipe?
        weak var weakSecond: ActionPipe?
        weak var weakCaptured: Tracked?
        do {
            let captured = Tracked("handler")
            let first = ActionPipe(name: "first")
            let second = ActionPipe(name: "second")
            try first.append(second)
            first.on(\.sharedAsyncPing) { process in
                await Task.yield()
                _ = captured.name
                return process.arguments + 1
            }
            second.on(\.sharedAsyncPing) { process in process.upstream.map { $0 * 2 } }
            (weakFirst, weakSecond, weakCaptured) = (first, second, captured)
            #expect(try await second.sharedAsyncPing(1) == 4)
        }
        #expect(weakFirst == nil)
        #expect(weakSecond == nil)
        #expect(weakCaptured == nil)
    }
}

/// An actor for the observation lifetime test.
actor OwnerReleaseLog {
    var values: [Int] = []
    func add(_ value: Int) { values.append(value) }
}
