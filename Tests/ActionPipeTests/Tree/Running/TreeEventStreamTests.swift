import ActionPipe
import Testing

@Suite("Tree: several readers of a run's events", .hangBound)
struct TreeEventStreamTests {
    /// A run that waits at `gate` before its first provider call returns.
    private func gatedRun(_ gate: TreeGate) -> OperationTreeRun {
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in [n, n + 1, n + 2] },
            work: { (n: Int) async -> Int in
                await gate.wait()
                return n * 2
            })
        return root.start(1, options: .init(concurrencyLimit: 1))
    }

    @Test("two added streams and the run's own each get every event, in the same order")
    func everyReaderEveryEvent() async {
        let gate = TreeGate()
        let run = gatedRun(gate)
        let first = run.eventStream()
        let second = run.eventStream(buffering: .unbounded)
        gate.open()
        async let a = Array(first)
        async let b = Array(second)
        let (own, report) = await treeCollect(run)
        let (fromFirst, fromSecond) = await (a, b)
        #expect(report.isSuccess)
        #expect(own.count == 3 * 3)  // started, produced, finished per item
        // Added while the first item was starting: at most its `started` event came before.
        for added in [fromFirst, fromSecond] {
            #expect(added.count >= own.count - 1)
            #expect(added.map { "\($0)" } == own.suffix(added.count).map { "\($0)" })
        }
    }

    @Test("a stream added after the run ended finishes at once, empty")
    func addedAfterEnd() async {
        let root = OperationTreeNode("root", objects: { (n: Int) in [n] }, work: { $0 })
        let run = root.start(1)
        _ = await run.report
        for await _ in run.events {}  // the run's own stream has finished: the run is over
        let late = await Array(run.eventStream())
        #expect(late.isEmpty)
    }

    @Test("a reader that stops early holds back no other, and is removed")
    func readerStopsEarly() async {
        let gate = TreeGate()
        let run = gatedRun(gate)
        let quitter = Task {
            for await _ in run.eventStream() { break }  // reads one event, then stops
        }
        let steady = run.eventStream()
        gate.open()
        await quitter.value
        let all = await Array(steady)
        #expect(all.count >= 8)  // at most the first `started` came before it was added
        if case .finished = all.last {} else { Issue.record("the stream ends with the run") }
        #expect(await run.report.isSuccess)
    }

    @Test("an added stream keeps only its own bounded buffer when nobody reads it")
    func boundedAddedStream() async {
        let gate = TreeGate()
        let root = OperationTreeNode(
            "root", objects: { (n: Int) in Array(0..<n) },
            work: { (n: Int) async -> Int in
                await gate.wait()  // no item ends before the stream is added
                return n
            })
        let run = root.start(200)
        let small = run.eventStream(buffering: .bufferingNewest(5))
        gate.open()
        let report = await run.report
        #expect(report.succeededCount == 200)
        let kept = await Array(small)
        #expect(kept.count == 5)
        if case .finished = kept.last {} else { Issue.record("the newest event is the last") }
    }
}

extension Array {
    /// Every element of `stream`, until it finishes.
    init(_ stream: AsyncStream<Element>) async {
        self = []
        for await element in stream { append(element) }
    }
}
