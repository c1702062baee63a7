import Synchronization
import Testing

@testable import ActionPipeTree

@Suite("Tree: workers and events are bounded by the work, not by the options")
struct TreeBoundedResourcesTests {
    @Test(
        "A one-item tree starts one worker, whatever the concurrency limit",
        arguments: [
            1, 8, 1_000_000, Int.max,
        ])
    func oneItemOneWorker(limit: Int) async {
        let node = OperationTreeNode("one", objects: { (n: Int) in [n] }, work: { $0 + 1 })
        let report = await node.run(1, options: OperationTreeOptions(concurrencyLimit: limit))
        #expect(report.outcome == .completed)
        #expect(report.succeededCount == 1)
        #expect(report.workersStarted == 1)
    }

    @Test("Workers never exceed the limit nor the items ready, and the limit is still reached")
    func workersFollowTheWork() async {
        let gauge = TreeConcurrencyGauge()
        let node = OperationTreeNode(
            "leaves", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) async -> Int in
                await gauge.measure { await Task.yield() }
                return n
            })
        let report = await node.run(40, options: OperationTreeOptions(concurrencyLimit: 1_000))
        #expect(report.succeededCount == 40)
        #expect(report.workersStarted <= 41)  // the root item, then 40 leaves
        let limited = await node.run(40, options: OperationTreeOptions(concurrencyLimit: 4))
        #expect(limited.succeededCount == 40)
        #expect(limited.workersStarted <= 4)
        #expect(limited.peakConcurrency <= 4)
    }

    @Test("An unread event stream keeps at most its buffer; the report still counts everything")
    func unreadStreamIsBounded() async {
        let node = OperationTreeNode(
            "leaves", objects: { (n: Int) in Array(0..<n) }, work: { $0 })
        let run = node.start(5_000, buffering: .bufferingNewest(10))
        let report = await run.report
        #expect(report.succeededCount == 5_000)
        var events: [OperationTreeEvent] = []
        for await event in run.events { events.append(event) }
        #expect(events.count <= 10)
        #expect(events.count > 0)
        let defaultRun = node.start(5_000)
        _ = await defaultRun.report
        var count = 0
        for await _ in defaultRun.events { count += 1 }
        #expect(count <= 1_024)
    }

    @Test("An event dropped from a full buffer is handed back, to be released after unlocking")
    func droppedEventsHandedBack() {
        final class Output: Sendable {}
        let sink = _TreeEventSink()
        let stream = sink.addStream(buffering: .bufferingNewest(1))
        weak var first: Output?
        var dropped: [OperationTreeEvent] = []
        do {
            let output = Output()
            first = output
            let item = OperationTreeItem(
                node: "n", nodeID: ObjectIdentifier(Output.self), id: 1, parentID: nil, index: 0,
                object: 0)
            sink.yield(.finished(item, output: output), dropped: &dropped)
            sink.yield(.finished(item, output: nil), dropped: &dropped)
        }
        // The stream let go of the first event; the caller holds it until it unlocks.
        #expect(dropped.count == 1)
        #expect(first != nil)
        dropped = []
        #expect(first == nil)
        withExtendedLifetime(stream) {}
    }
}
