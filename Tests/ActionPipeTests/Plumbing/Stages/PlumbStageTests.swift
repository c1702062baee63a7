import ActionPipe
import Testing

/// A throwing stage's error.
enum PlumbStageError: Error, Equatable {
    case broken(Int)
}

/// A stage object with a custom name that appends it to the payload.
struct PlumbTagStage: PlumbingStage {
    let tag: String
    var name: String { "tag-\(tag)" }

    func receive(_ packet: inout PlumbingPacket<[String]>) -> PlumbingVerdict {
        packet.payload.append(tag)
        return .pass
    }
}

/// An async stage object that awaits, then appends its tag.
struct PlumbAsyncTagStage: AsyncPlumbingStage {
    let tag: String

    func receive(_ packet: inout PlumbingPacket<[String]>) async -> PlumbingVerdict {
        await Task.yield()
        packet.payload.append(tag)
        return .pass
    }
}

/// Stages: order, changes, verdicts, errors, names, the synchronous and async paths.
@Suite("Plumbing: stages and verdicts")
struct PlumbStageTests {
    @Test("stages run in the order they were added, each on the packet the previous one left")
    func order() async {
        let plumber = PipelinePlumber<[String]>()
        plumber.addStage("a") { packet in
            packet.payload.append("a")
            return .pass
        }
        plumber.addStage(PlumbTagStage(tag: "b"))
        plumber.addStage("c") { packet in
            packet.payload.append("c")
            return .pass
        }
        #expect(plumber.send([], from: 1).delivered?.payload == ["a", "b", "c"])
        #expect(await plumber.process(["x"], from: 1).delivered?.payload == ["x", "a", "b", "c"])
        #expect(plumber.stageNames == ["a", "tag-b", "c"])
        #expect(plumber.isSynchronous)
    }

    @Test("a stage may replace the whole packet, even its port number")
    func replacePacket() {
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("relabel") { packet in
            packet = PlumbingPacket(packet.payload * 2, port: packet.port + 1)
            return .pass
        }
        #expect(plumber.send(21, from: 99).delivered == PlumbingPacket(42, port: 100))
    }

    @Test("a stop keeps the packet as the stages left it, and later stages do not run")
    func stopKeepsPacket() {
        let later = Counter()
        let sinkCalls = Counter()
        let plumber = PipelinePlumber<Int>(name: "p")
        plumber.addStage("double") { packet in
            packet.payload *= 2
            return .pass
        }
        plumber.addStage("gate") { packet in
            packet.payload > 10 ? .stop("over 10: \(packet.payload)") : .pass
        }
        plumber.addStage("later") { _ in
            later.increment()
            return .pass
        }
        plumber.sink { _ in sinkCalls.increment() }

        let stop = plumber.send(6, from: 4).stop
        #expect(stop?.packet == PlumbingPacket(12, port: 4))
        #expect(stop?.stage == "gate")
        #expect(stop?.stagesPassed == 1)
        #expect(stop?.stageCount == 3)
        #expect(stop?.reason?.refusal == "over 10: 12")
        #expect(
            stop?.description
                == "p: port 4's packet stopped by stage 'gate' (2 of 3): refused: over 10: 12")
        #expect(later.value == 0)
        #expect(sinkCalls.value == 0)
        #expect(plumber.send(5, from: 4).wasDelivered)
        #expect(later.value == 1 && sinkCalls.value == 1)
    }

    @Test("a stage that throws stops the packet with the error, in send and in process")
    func throwingStage() async {
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("parse") { packet in
            if packet.payload < 0 { throw PlumbStageError.broken(packet.payload) }
            return .pass
        }
        let stop = plumber.send(-3, from: 1).stop
        #expect(stop?.stage == "parse")
        #expect(stop?.reason?.error as? PlumbStageError == .broken(-3))
        #expect(stop?.reason?.refusal == nil)
        let asyncStop = await plumber.process(-4, from: 1).stop
        #expect(asyncStop?.reason?.error as? PlumbStageError == .broken(-4))
        #expect(plumber.send(3, from: 1).wasDelivered)
    }

    @Test("an async stage throws: the packet stops there")
    func throwingAsyncStage() async {
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("remote") { packet in
            await Task.yield()
            throw PlumbStageError.broken(packet.payload)
        }
        let stop = await plumber.process(8, from: 2).stop
        #expect(stop?.stage == "remote")
        #expect(stop?.reason?.error as? PlumbStageError == .broken(8))
        #expect(stop?.description.hasSuffix("threw broken(8)") == true)
    }

    @Test("sync and async stages, closures and objects, mix in one plumber")
    func mixed() async {
        let plumber = PipelinePlumber<[String]>()
        plumber.addStage(PlumbTagStage(tag: "s1"))
        plumber.addStage(PlumbAsyncTagStage(tag: "a1"))
        plumber.addStage("s2") { packet in
            packet.payload.append("s2")
            return .pass
        }
        plumber.addStage("a2") { packet in
            await Task.yield()
            packet.payload.append("a2")
            return .pass
        }
        #expect(!plumber.isSynchronous)
        #expect(plumber.stageNames == ["tag-s1", "PlumbAsyncTagStage", "s2", "a2"])
        #expect(await plumber.process([], from: 1).delivered?.payload == ["s1", "a1", "s2", "a2"])
    }

    @Test("send reaching an async stage stops there; stages before it ran, none after")
    func sendMeetsAsync() {
        let log = Log()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("sync") { _ in
            log.append("sync")
            return .pass
        }
        plumber.addStage("async") { _ in
            log.append("async")
            await Task.yield()
            return .pass
        }
        let stop = plumber.send(1, from: 1).stop
        #expect(stop?.stage == "async")
        #expect(stop?.reason?.isStageAsync == true)
        #expect(log.all == ["sync"])
    }

    @Test("no sink: delivered packets are returned to the caller only")
    func noSink() {
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("pass") { _ in .pass }
        #expect(plumber.send(3, from: 2).delivered == PlumbingPacket(3, port: 2))
    }

    @Test("setting the sink again replaces it")
    func replaceSink() {
        let first = Log()
        let second = Log()
        let plumber = PipelinePlumber<Int>()
        plumber.sink { _ in first.append("first") }
        plumber.send(1, from: 1)
        plumber.sink { _ in second.append("second") }
        plumber.send(2, from: 1)
        #expect(first.all == ["first"])
        #expect(second.all == ["second"])
    }

    @Test("a stage added while a packet is in the stages affects the next packet, not that one")
    func addStageDuringPacket() {
        let plumber = PipelinePlumber<[String]>()
        plumber.addStage("grow") { [weak plumber] packet in
            packet.payload.append("grow")
            plumber?.addStage("added") { packet in
                packet.payload.append("added")
                return .pass
            }
            return .pass
        }
        #expect(plumber.send([], from: 1).delivered?.payload == ["grow"])
        #expect(plumber.send([], from: 1).delivered?.payload == ["grow", "added"])
        #expect(plumber.stageNames == ["grow", "added", "added"])
    }

    @Test("a stage may send into the same plumber (nested), and the sink may too")
    func reentrantSend() {
        let sink = Log()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("nest") { [weak plumber] packet in
            if packet.payload > 0 {
                let inner = plumber?.send(packet.payload - 1, from: packet.port)
                sink.append("inner \(inner?.delivered?.payload ?? -1)")
            }
            return .pass
        }
        plumber.sink { [weak plumber] packet in
            sink.append("sink \(packet.payload)")
            if packet.payload == 2 { plumber?.send(-5, from: 0) }
        }
        #expect(plumber.send(2, from: 1).wasDelivered)
        #expect(
            sink.all == [
                "sink 0", "inner 0", "sink 1", "inner 1", "sink 2", "sink -5",
            ])
    }

    @Test("verdicts and outcomes describe themselves")
    func descriptions() {
        #expect(PlumbingVerdict.pass.description == "pass")
        #expect(PlumbingVerdict.stop("no").description == "stop: no")
        #expect(PlumbingVerdict.stop("a") != .stop("b"))
        #expect(PlumbingPacket(1, port: 2).description == "port 2: 1")
        let plumber = PipelinePlumber<Int>(name: "d")
        #expect(plumber.send(1, from: 2).description == "delivered port 2: 1")
        #expect(PlumbingStopReason.cancelled.description == "cancelled")
        #expect(PlumbingStopReason.portNotConnected.description.contains("addPort"))
    }

    @Test("the packet gives access to the payload's fields")
    func dynamicMembers() {
        var packet = PlumbingPacket(PlumbSharePacket(docId: 1, userId: 2), port: 3)
        packet.link = "l"
        packet.docId += 1
        #expect(packet.payload == PlumbSharePacket(docId: 2, userId: 2, link: "l"))
    }
}
