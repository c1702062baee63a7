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
    @Test("a started run's events are published exactly, in order", .hangBound)
    func publishesInOrder() async {
        let bus = EventBus(name: "link.tree")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        let run = linkJobs().start(2, options: .init(concurrencyLimit: 1))
        let token = run.publish(to: bus) { LinkTreeLine(line: "\($0)") }
        let report = await run.report
        #expect(report.isSuccess)
        let lines = await recorder.waitForCount(6)
        #expect(
            lines.map(\.line) == [
                "started job#1(1) attempt 1", "produced job#1(1) -> 1", "finished job#1(1)",
                "started job#2(2) attempt 1", "produced job#2(2) -> 2", "finished job#2(2)",
            ])
        await linkEventually { !token.isActive }  // it ends with the run
        #expect(recorder.count == 6)
    }

    @Test("nil publishes nothing: only the events the app maps", .hangBound)
    func filters() async {
        let bus = EventBus(name: "link.tree.filter")
        let recorder = BusRecorder(bus, BusTopic(LinkValue.self))
        let jobs = linkJobs()
        let run = jobs.start(50, options: .init(concurrencyLimit: 4))
        let token = run.publish(to: bus) { $0.finishedOutput(of: jobs).map(LinkValue.init) }
        _ = await run.report
        await linkEventually { !token.isActive }
        #expect(recorder.events.map(\.value).sorted() == Array(1...50))
    }

    @Test("cancelling the token stops the publishing, not the run", .hangBound)
    func cancel() async throws {
        let bus = EventBus(name: "link.tree.cancel")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        let gate = PlumbGate()
        let jobs = OperationTreeNode(
            "held", objects: { (count: Int) in Array(1...count) },
            work: { (job: Int) in
                await gate.wait()
                return job
            })
        let run = jobs.start(1)
        let token = run.publish(to: bus) { LinkTreeLine(line: "\($0)") }
        let first = await recorder.waitForCount(1)  // "started": the work waits at the gate
        #expect(first.map(\.line) == ["started held#1(1) attempt 1"])
        #expect(token.cancel())
        #expect(!token.isActive)
        #expect(!token.cancel())
        await gate.open()
        let report = await run.report
        #expect(report.isSuccess)  // the run itself went on
        try await Task.sleep(for: .milliseconds(50))  // time for a wrongly live connector
        #expect(recorder.count == 1)
    }

    @Test("the connector keeps neither the run nor the bus alive", .hangBound)
    func noLeaks() async {
        let bus = EventBus(name: "link.tree.leaks")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        weak var releasedRun: OperationTreeRun?
        var token: RegistrationToken?
        do {
            let run = linkJobs().start(3)
            releasedRun = run
            token = run.publish(to: bus) { LinkTreeLine(line: "\($0)") }
            _ = await run.report
        }
        await recorder.waitForCount(9)
        await linkEventually { token?.isActive == false }
        #expect(releasedRun == nil)

        let gate = PlumbGate()
        let held = OperationTreeNode(
            "held", objects: { (count: Int) in Array(1...count) },
            work: { (job: Int) in
                await gate.wait()
                return job
            })
        let run = held.start(1)
        weak var releasedBus: EventBus?
        do {
            let other = EventBus(name: "link.tree.gone")
            releasedBus = other
            token = run.publish(to: other) { LinkTreeLine(line: "\($0)") }
        }
        #expect(releasedBus == nil)
        await gate.open()
        _ = await run.report
        await linkEventually { token?.isActive == false }  // ended at the next event
    }

    @Test("a background run's events all arrive, each item's in order", .hangBound)
    func backgroundRun() async {
        let bus = EventBus(name: "link.tree.background")
        let recorder = BusRecorder(bus, BusTopic(LinkTreeLine.self))
        let run = linkJobs().start(200, options: .init(concurrencyLimit: 4), buffering: .unbounded)
        run.publish(to: bus) { LinkTreeLine(line: "\($0)") }
        _ = await run.report
        let lines = await recorder.waitForCount(600).map(\.line)
        #expect(lines.count == 600)
        for job in 1...200 {
            let item = "job#\(job)(\(job))"
            let mine = lines.filter { $0.contains(" \(item) ") || $0.hasSuffix(" \(item)") }
            #expect(
                mine == [
                    "started \(item) attempt 1", "produced \(item) -> \(job)", "finished \(item)",
                ])
        }
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
        let calls = Mutex(0)
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
