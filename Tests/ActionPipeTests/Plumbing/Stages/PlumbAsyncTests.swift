import ActionPipe
import Testing

/// A plumber whose first stage reports its arrival, then waits on a gate that ignores
/// cancellation, so a test can cancel at a known point.
struct PlumbHeldFlow {
    let plumber: PipelinePlumber<Int>
    let port = PlumbingPort<Int>(1)
    let arrived = PlumbInbox<Int>()
    let gate = PlumbGate()
    let log = Log()
    let sink = PlumbInbox<PlumbingPacket<Int>>()

    init(stages: Int = 2) throws {
        let (arrived, gate, log, sink) = (arrived, gate, log, sink)
        plumber = try PipelinePlumber<Int>(name: "held").addPort(port)
        plumber.addStage("hold") { packet in
            log.append("hold \(packet.payload)")
            arrived.put(packet.payload)
            await gate.wait()
            return .pass
        }
        plumber.sink { sink.put($0) }
        for index in 1..<stages {
            plumber.addStage("after\(index)") { packet in
                log.append("after\(index) \(packet.payload)")
                return .pass
            }
        }
    }
}

/// The async path: awaiting outcomes, and cancellation between stages.
@Suite("Plumbing: async stages and cancellation")
struct PlumbAsyncTests {
    @Test(
        "cancelling the caller's task stops the packet before the next stage",
        .hangBound)
    func cancelBetweenStages() async throws {
        let flow = try PlumbHeldFlow()
        let call = Task { await flow.plumber.process(7, from: 3) }
        _ = await flow.arrived.wait(for: 1)  // the packet is inside "hold"
        call.cancel()
        await flow.gate.open()
        let stop = try #require(await call.value.stop)
        #expect(stop.reason?.isCancelled == true)
        #expect(stop.stage == "after1")  // the stage that did not run
        #expect(stop.stagesPassed == 1)
        #expect(
            stop.description
                == "held: port 3's packet stopped before stage 'after1' (2 of 2): cancelled")
        #expect(flow.log.all == ["hold 7"])
        #expect(flow.sink.all.isEmpty)
    }

    @Test("cancelled after the last stage: the sink does not run", .hangBound)
    func cancelBeforeSink() async throws {
        let flow = try PlumbHeldFlow(stages: 1)
        let call = Task { await flow.plumber.process(7, from: 3) }
        _ = await flow.arrived.wait(for: 1)
        call.cancel()
        await flow.gate.open()
        let stop = try #require(await call.value.stop)
        #expect(stop.reason?.isCancelled == true)
        #expect(stop.stage == nil)
        #expect(stop.stagesPassed == 1)
        #expect(
            stop.description
                == "held: port 3's packet stopped after all 1 stages, before the sink: cancelled")
        #expect(flow.sink.all.isEmpty)
    }

    @Test("a task cancelled before it sends runs no stage")
    func cancelledBeforeStart() async throws {
        let flow = try PlumbHeldFlow()
        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await flow.plumber.process(1, from: 1)
        }
        let stop = try #require(await call.value.stop)
        #expect(stop.stage == "hold" && stop.stagesPassed == 0 && stop.reason?.isCancelled == true)
        #expect(flow.log.all.isEmpty)
    }

    @Test("a stage that awaits cancellably sees the cancellation itself and fails")
    func stageSeesCancellation() async throws {
        let started = PlumbInbox<Int>()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("sleep") { packet in
            started.put(packet.payload)
            try await Task.sleep(for: .seconds(3_600))  // only cancellation ends it
            return .pass
        }
        let call = Task { await plumber.process(1, from: 1) }
        _ = await started.wait(for: 1)
        call.cancel()
        let stop = try #require(await call.value.stop)
        #expect(stop.stage == "sleep")
        #expect(stop.reason?.error is CancellationError)
    }

    @Test(
        "a port's queued packet whose caller is cancelled never enters a stage",
        .hangBound)
    func cancelQueuedOnPort() async throws {
        let flow = try PlumbHeldFlow()
        let first = Task { await flow.port.process(1) }
        _ = await flow.arrived.wait(for: 1)  // the first packet holds the port
        let second = Task { await flow.port.process(2) }  // waits behind it
        second.cancel()
        await flow.gate.open()

        #expect(await first.value.wasDelivered)
        let stop = try #require(await second.value.stop)
        #expect(stop.reason?.isCancelled == true)
        #expect(stop.stage == "hold" && stop.stagesPassed == 0)
        #expect(flow.log.all == ["hold 1", "after1 1"])  // packet 2 never ran a stage
        #expect(flow.sink.all.map(\.payload) == [1])
    }

    @Test(
        "cancelling a caller whose packet waits ends the wait at once, before the port frees",
        .hangBound)
    func cancelEndsTheWait() async throws {
        let flow = try PlumbHeldFlow()
        let stops = PlumbInbox<PlumbingOutcome<Int>>()
        flow.plumber.onStop { stops.put($0) }
        let first = Task { await flow.port.process(1) }
        _ = await flow.arrived.wait(for: 1)  // the first packet holds the port, at the gate
        let second = Task { await flow.port.process(2) }  // waits behind it
        try await Task.sleep(for: .milliseconds(20))  // usually queued by now; either way:
        second.cancel()
        // The gate is still closed: the wait ends without the port freeing.
        let stop = try #require(await second.value.stop)
        #expect(stop.reason?.isCancelled == true)
        #expect(stop.stage == "hold" && stop.stagesPassed == 0)
        #expect(stops.all.map(\.packet.payload) == [2], "the stop observer hears of it")

        await flow.gate.open()
        #expect(await first.value.wasDelivered)
        #expect(flow.log.all == ["hold 1", "after1 1"])  // packet 2 never ran a stage
        #expect(await flow.port.process(3).wasDelivered, "the port goes on with the next")
    }

    @Test("await process on a port follows the packets emitted before it", .hangBound)
    func processFollowsEmits() async throws {
        let flow = try PlumbHeldFlow()
        await flow.gate.open()
        for value in 1...5 { flow.port.emit(value) }
        let outcome = await flow.port.process(6)
        #expect(outcome.delivered?.payload == 6)
        #expect(flow.sink.all.map(\.payload) == [1, 2, 3, 4, 5, 6])
    }
}
