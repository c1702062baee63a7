import ActionPipe
import ActionPipeTesting
import Synchronization
import Testing

/// A tree of one node, "job", whose work on `n` returns `n`.
private func linkJobs() -> OperationTreeNode<Int, Int> {
    OperationTreeNode(
        "job", objects: { (count: Int) in Array(1...count) }, work: { (job: Int) in job })
}

@Suite("Connectors: a tree run publishes its events on a bus")
struct ConnectorsTreeTests {
    @Test("a structured run's progress goes to the bus through bus.publisher, in order")
    func structuredRunProgress() async {
        let bus = EventBus(name: "link.tree.progress")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        let jobs = linkJobs()
        let report = await jobs.run(
            4, options: .init(concurrencyLimit: 1),
            progress: bus.publisher { event in
                event.finishedOutput(of: jobs).map { LinkTreeLine(line: "done \($0)") }
            })
        #expect(report.outcome == .completed)
        // Published during the run, before it returned: nothing to wait for.
        #expect(recorder.events.map(\.line) == ["done 1", "done 2", "done 3", "done 4"])
    }

    @Test("bus.publisher publishes each call at once, in call order, on the caller's thread")
    func publisher() async {
        let bus = EventBus(name: "link.tree.publisher")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        let jobs = linkJobs()
        let progress: @Sendable (OperationTreeEvent) -> Void = bus.publisher { event in
            event.finishedOutput(of: jobs).map { LinkTreeLine(line: "done \($0)") }
        }
        var read: [String] = []
        for await event in jobs.start(3, options: .init(concurrencyLimit: 1)).events {
            progress(event)
            if let job = event.finishedOutput(of: jobs) { read.append("done \(job)") }
            #expect(recorder.events.map(\.line) == read)  // published before the call returned
        }
        #expect(read == ["done 1", "done 2", "done 3"])

        let values: @Sendable (Int) -> Void = bus.publisher { LinkTreeLine(line: "\($0)") }
        await Task.detached { for value in 1...1_000 { values(value) } }.value
        #expect(recorder.events.dropFirst(3).map(\.line) == (1...1_000).map(String.init))
    }

    @Test("bus.publisher does not keep the bus alive")
    func publisherWeak() {
        weak var releasedBus: EventBus?
        let calls = TestLock(0)
        var callback: (@Sendable (Int) -> Void)?
        do {
            let bus = EventBus(name: "link.tree.publisher.gone")
            releasedBus = bus
            callback = bus.publisher { (value: Int) -> LinkValue? in
                calls.withLock { $0 += 1 }
                return LinkValue(value: value)
            }
            callback?(1)
        }
        #expect(releasedBus == nil)
        callback?(2)  // publishes nothing, and does not call the transform
        #expect(calls.withLock { $0 } == 1)
    }
}
