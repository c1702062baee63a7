import ActionPipe
import Testing

/// Who keeps whom alive: the plumber keeps its ports, stages and sink; a port holds its
/// plumber weakly; nothing outlives the last packet.
@Suite("Plumbing: lifetimes")
struct PlumbLifetimeTests {
    @Test("releasing the plumber releases its stages, sink, observer and what they captured")
    func plumberReleased() throws {
        weak var weakPlumber: PipelinePlumber<Int>?
        weak var weakCaptured: Tracked?
        weak var weakPort: PlumbingPort<Int>?
        let outside = PlumbingPort<Int>(2)
        do {
            let captured = Tracked("captured")
            weakCaptured = captured
            let port = PlumbingPort<Int>(1)
            weakPort = port
            let plumber = try PipelinePlumber<Int>().addPort(port).addPort(outside)
            plumber.addStage("uses") { _ in
                _ = captured.name
                return .pass
            }
            plumber.sink { _ in _ = captured }
            plumber.onStop { _ in _ = captured }
            for index in 0..<10 {  // several snapshots and a grown stage storage
                plumber.addStage("more\(index)") { _ in .pass }
            }
            weakPlumber = plumber
            #expect(plumber.send(1, from: 1).wasDelivered)
            port.emit(3)
        }
        #expect(weakPlumber == nil)
        #expect(weakCaptured == nil)
        #expect(weakPort == nil)  // the plumber kept it; nobody else did
        #expect(!outside.isConnected)
    }

    @Test("a port does not keep its plumber alive")
    func portHoldsPlumberWeakly() throws {
        let port = PlumbingPort<Int>(1)
        weak var weakPlumber: PipelinePlumber<Int>?
        do {
            let plumber = try PipelinePlumber<Int>().addPort(port)
            weakPlumber = plumber
        }
        #expect(weakPlumber == nil)
        port.emit(1)  // dropped, no crash
    }

    @Test("a stage that captures its plumber weakly leaves no cycle")
    func noCycle() throws {
        weak var weakPlumber: PipelinePlumber<Int>?
        do {
            let plumber = PipelinePlumber<Int>()
            plumber.addStage("self") { [weak plumber] _ in plumber == nil ? .stop("gone") : .pass }
            weakPlumber = plumber
            #expect(plumber.send(1, from: 1).wasDelivered)
        }
        #expect(weakPlumber == nil)
    }

    @Test(
        "after its queue drains, a port's task lets go of the port and the plumber",
        .hangBound)
    func drainReleases() async throws {
        weak var weakPlumber: PipelinePlumber<Int>?
        weak var weakPort: PlumbingPort<Int>?
        let inbox = PlumbInbox<Int>()
        do {
            let port = PlumbingPort<Int>(1)
            let plumber = try PipelinePlumber<Int>().addPort(port)
            plumber.addStage("yield") { _ in
                await Task.yield()
                return .pass
            }
            plumber.sink { inbox.put($0.payload) }
            weakPlumber = plumber
            weakPort = port
            for value in 0..<10 { port.emit(value) }
            #expect(await inbox.wait(for: 10) == Array(0..<10))
        }
        // The drain task may still be finishing its last turn: give it a moment.
        _ = await eventually { weakPlumber == nil && weakPort == nil }
        #expect(weakPlumber == nil)
        #expect(weakPort == nil)
    }

    @Test("a packet in flight keeps the plumber alive until it is done", .hangBound)
    func inFlight() async throws {
        let gate = PlumbGate()
        let arrived = PlumbInbox<Int>()
        weak var weakPlumber: PipelinePlumber<Int>?
        let call: Task<PlumbingOutcome<Int>, Never>
        do {
            let plumber = PipelinePlumber<Int>()
            plumber.addStage("hold") { packet in
                arrived.put(packet.payload)
                await gate.wait()
                return .pass
            }
            weakPlumber = plumber
            call = Task { await plumber.process(5, from: 1) }
        }
        _ = await arrived.wait(for: 1)
        #expect(weakPlumber != nil)
        await gate.open()
        #expect(await call.value.wasDelivered)
        _ = await eventually { weakPlumber == nil }
        #expect(weakPlumber == nil)
    }
}
