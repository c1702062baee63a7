import ActionPipe
import ActionPipeTesting
import Testing

/// A stage object that keeps nothing about its plumbers; the original stores the next stage
/// on the stage object (`plumber_nextPipeline`), so a second plumber rewires the first.
final class PlumbCountingCheck: PlumbingStage {
    let calls = Counter()

    func receive(_ packet: inout PlumbingPacket<Int>) -> PlumbingVerdict {
        calls.increment()
        return packet.payload >= 0 ? .pass : .stop("negative")
    }
}

/// Each hazard of the original (SEMANTICS.md §2) is fixed.
@Suite("Plumbing: the original's hazards are fixed")
struct PlumbOriginalHazardsTests {
    @Test("a port added after the sink is set is connected")
    func portAfterSink() async throws {
        let inbox = PlumbInbox<PlumbingPacket<Int>>()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("pass") { _ in .pass }
        plumber.sink { inbox.put($0) }
        let early = PlumbingPort<Int>(1)
        try plumber.addPort(early)
        let late = PlumbingPort<Int>(2)
        try plumber.addPort(late)  // after the sink: the original never wires it

        late.emit(20)
        early.emit(10)
        #expect(inbox.all == [PlumbingPacket(20, port: 2), PlumbingPacket(10, port: 1)])
        #expect(plumber.portNumbers == [1, 2])
    }

    @Test("with no stages, packets reach the sink unchanged")
    func noStages() async throws {
        let inbox = PlumbInbox<PlumbingPacket<PlumbSharePacket>>()
        let port = PlumbingPort<PlumbSharePacket>(100)
        let plumber = try PipelinePlumber<PlumbSharePacket>().addPort(port)
        plumber.sink { inbox.put($0) }
        let packet = PlumbSharePacket(docId: 1, userId: 2, entrance: "menu")

        port.emit(packet)
        #expect(await port.process(packet).delivered == PlumbingPacket(packet, port: 100))
        #expect(plumber.send(packet, from: 7).delivered == PlumbingPacket(packet, port: 7))
        #expect(await plumber.process(packet, from: 8).wasDelivered)
        #expect(inbox.all.map(\.port) == [100, 100, 7, 8])
        #expect(inbox.all.allSatisfy { $0.payload == packet })
    }

    @Test("one stage object serves two plumbers without interference")
    func sharedStage() throws {
        let check = PlumbCountingCheck()
        let left = Log()
        let right = Log()
        let a = PipelinePlumber<Int>(name: "a")
        a.addStage(check)
        a.addStage("a-next") { packet in
            left.append("a-next \(packet.payload)")
            return .pass
        }
        let b = PipelinePlumber<Int>(name: "b")
        b.addStage("b-first") { packet in
            packet.payload *= 10
            return .pass
        }
        b.addStage(check)
        b.addStage("b-next") { packet in
            right.append("b-next \(packet.payload)")
            return .pass
        }

        #expect(a.send(1, from: 1).delivered?.payload == 1)
        #expect(b.send(1, from: 1).delivered?.payload == 10)
        #expect(a.send(2, from: 1).wasDelivered)  // still goes to a's next stage, not b's
        #expect(left.all == ["a-next 1", "a-next 2"])
        #expect(right.all == ["b-next 10"])
        #expect(a.stageNames == ["PlumbCountingCheck", "a-next"])
        #expect(b.stageNames == ["b-first", "PlumbCountingCheck", "b-next"])
        #expect(b.send(-1, from: 1).stop?.stage == "PlumbCountingCheck")
        #expect(check.calls.value == 4)
    }

    @Test("one stage object in two plumbers, used from many threads at once")
    func sharedStageConcurrently() async throws {
        let check = PlumbCountingCheck()
        let a = PipelinePlumber<Int>()
        let b = PipelinePlumber<Int>()
        a.addStage(check)
        b.addStage(check)
        a.addStage("+1") { packet in
            packet.payload += 1
            return .pass
        }
        b.addStage("-1") { packet in
            packet.payload -= 1
            return .pass
        }
        let wrong = Counter()
        let finished = await runOnThreads(4) { thread in
            for i in 0..<2_000 {
                let plumber = thread.isMultiple(of: 2) ? a : b
                let expected = thread.isMultiple(of: 2) ? i + 1 : i - 1
                if plumber.send(i, from: thread).delivered != PlumbingPacket(expected, port: thread)
                {
                    wrong.increment()
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(check.calls.value == 8_000)
    }

    @Test("a stage answers exactly once; to pass a second packet it emits into a port, in order")
    func passTwice() async throws {
        let inbox = PlumbInbox<PlumbingPacket<Int>>()
        let port = PlumbingPort<Int>(5)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("fork") { [weak port] packet in
            // The stage's verdict passes the packet once; a copy goes in as a new packet,
            // after this one (the port is busy with it, so the copy waits its turn).
            if packet.payload < 100 { port?.emit(packet.payload + 100) }
            return .pass
        }
        plumber.sink { inbox.put($0) }

        port.emit(1)
        let received = await inbox.wait(for: 2)
        #expect(received.map(\.payload) == [1, 101])
        #expect(plumber.stageNames == ["fork"])
    }

    @Test("a stopped packet is not dropped silently: the caller and the observer learn of it")
    func stopsAreReported() async throws {
        let port = PlumbingPort<Int>(3)
        let plumber = try PipelinePlumber<Int>(name: "odd-only").addPort(port)
        plumber.addStage("odd") { packet in packet.payload % 2 == 1 ? .pass : .stop("even") }
        let sink = PlumbingSinkRecorder(plumber)
        let stops = PlumbingStopRecorder(plumber)

        port.emit(2)  // fire-and-forget: only the observer can tell
        #expect(plumber.send(4, from: 9).stop?.reason?.refusal == "even")
        port.emit(5)
        #expect(
            stops.stops.map(\.packet) == [PlumbingPacket(2, port: 3), PlumbingPacket(4, port: 9)])
        #expect(stops.summaries == ["odd: refused: even", "odd: refused: even"])
        #expect(sink.packets == [PlumbingPacket(5, port: 3)])
    }

    @Test("many stages do not recurse: the original's recursion per stage is a loop here")
    func manyStages() async {
        let plumber = PipelinePlumber<Int>()
        for index in 0..<20_000 {
            plumber.addStage("s\(index)") { packet in
                packet.payload &+= 1
                return .pass
            }
        }
        #expect(plumber.send(0, from: 1).delivered?.payload == 20_000)
        #expect(await plumber.process(0, from: 1).delivered?.payload == 20_000)
    }
}
