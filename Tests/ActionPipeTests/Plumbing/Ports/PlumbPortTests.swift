import ActionPipe
import Testing

/// Ports: connecting, numbers, order, and what happens when no plumber listens.
@Suite("Plumbing: ports")
struct PlumbPortTests {
    @Test("a port stamps its number on every packet; several ports feed one plumber")
    func numbers() async throws {
        let inbox = PlumbInbox<PlumbingPacket<String>>()
        let tap = PlumbingPort<String>(100)
        let push = PlumbingPort<String>(200)
        let plumber = try PipelinePlumber<String>().addPort(tap).addPort(push)
        plumber.sink { inbox.put($0) }
        tap.emit("tap")
        push.emit("push")
        #expect(await tap.process("tap2").delivered?.port == 100)
        #expect(inbox.all.map(\.port) == [100, 200, 100])
        #expect(plumber.portNumbers == [100, 200])
    }

    @Test("two ports may share a number; the number is a label")
    func sharedNumber() throws {
        let plumber = try PipelinePlumber<Int>().addPort(PlumbingPort(1)).addPort(PlumbingPort(1))
        #expect(plumber.portNumbers == [1, 1])
    }

    @Test("adding a port twice to one plumber does nothing")
    func addTwice() throws {
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port).addPort(port)
        #expect(plumber.portNumbers == [1])
    }

    @Test("a port feeds one plumber at a time: a second one is refused with what to do")
    func portInUse() throws {
        let port = PlumbingPort<Int>(100)
        let first = try PipelinePlumber<Int>(name: "first").addPort(port)
        let second = PipelinePlumber<Int>(name: "second")
        #expect(throws: PlumbingError.portInUse(port: 100, plumber: "first")) {
            try second.addPort(port)
        }
        #expect(
            PlumbingError.portInUse(port: 100, plumber: "first").description
                == "port 100 already feeds plumber 'first'; a port feeds one plumber at a time: "
                + "call `removePort(_:)` on 'first' first, or make another port")
        #expect(second.portNumbers.isEmpty)

        #expect(first.removePort(port))
        try second.addPort(port)  // free again
        #expect(second.portNumbers == [100])
        #expect(first.portNumbers.isEmpty)
        #expect(!first.removePort(port))  // not first's any more
    }

    @Test("a port whose plumber is gone can join another")
    func plumberReleased() throws {
        let port = PlumbingPort<Int>(1)
        do {
            let plumber = try PipelinePlumber<Int>().addPort(port)
            #expect(port.isConnected)
            _ = plumber
        }
        #expect(!port.isConnected)
        let next = try PipelinePlumber<Int>().addPort(port)
        #expect(next.portNumbers == [1])
    }

    @Test("a port without a plumber drops emitted packets and reports processed ones")
    func notConnected() async throws {
        let port = PlumbingPort<Int>(9)
        port.emit(1)  // nothing to do: dropped
        let stop = try #require(await port.process(2).stop)
        #expect(stop.reason?.isPortNotConnected == true)
        #expect(stop.stage == nil)
        #expect(stop.packet == PlumbingPacket(2, port: 9))
        #expect(
            stop.description
                == "port 9's packet never entered a plumber: the port belongs to no plumber; "
                + "add it with `plumber.addPort(_:)`")
    }

    @Test("with synchronous stages, emit runs the packet before it returns")
    func emitInline() throws {
        let log = Log()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("log") { packet in
            log.append("stage \(packet.payload)")
            return .pass
        }
        plumber.sink { log.append("sink \($0.payload)") }
        port.emit(1)
        log.append("after emit")
        #expect(log.all == ["stage 1", "sink 1", "after emit"])
        _ = plumber
    }

    @Test(
        "with async stages, emitted packets of one port reach the sink in order",
        .hangBound)
    func emitOrdered() async throws {
        let inbox = PlumbInbox<Int>()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("vary") { packet in
            // Uneven suspension, so packets run concurrently would overtake each other.
            for _ in 0..<(packet.payload % 3) { await Task.yield() }
            return .pass
        }
        plumber.sink { inbox.put($0.payload) }
        for value in 0..<200 { port.emit(value) }
        #expect(await inbox.wait(for: 200) == Array(0..<200))
        _ = plumber
    }

    @Test(
        "a stage emitting into its own port does not deadlock; the packet queues",
        .hangBound)
    func reentrantEmit() async throws {
        let inbox = PlumbInbox<Int>()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("count down") { [weak port] packet in
            if packet.payload > 0 { port?.emit(packet.payload - 1) }
            return .pass
        }
        plumber.sink { inbox.put($0.payload) }
        port.emit(3)
        #expect(await inbox.wait(for: 4) == [3, 2, 1, 0])
        _ = plumber
    }

    @Test(
        "an async stage awaiting process on its own port runs the new packet nested",
        .hangBound)
    func reentrantProcess() async throws {
        let log = Log()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("ask again") { [weak port] packet in
            log.append("in \(packet.payload)")
            if packet.payload > 0, let port {
                // The port is busy with this very packet: waiting in its queue would
                // wait for itself.
                let inner = await port.process(packet.payload - 1)
                log.append("inner \(inner.delivered?.payload ?? -1)")
            }
            return .pass
        }
        #expect(await port.process(2).wasDelivered)  // claimed: runs in this task
        #expect(log.all == ["in 2", "in 1", "in 0", "inner 0", "inner 1"])

        _ = log.take()
        let sink = PlumbInbox<Int>()
        plumber.sink { sink.put($0.payload) }
        port.emit(1)  // an async stage: run by the port's task, which is also recognised
        #expect(await sink.wait(for: 2) == [0, 1])
        #expect(log.all == ["in 1", "in 0", "inner 0"])
    }

    @Test("a task that is not inside the port's running packet still waits its turn")
    func unrelatedTaskWaits() async throws {
        let gate = PlumbGate()
        let arrived = PlumbInbox<Int>()
        let order = Log()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("hold first") { packet in
            arrived.put(packet.payload)
            if packet.payload == 1 { await gate.wait() }
            order.append("done \(packet.payload)")
            return .pass
        }
        let first = Task { await port.process(1) }
        _ = await arrived.wait(for: 1)
        let second = Task { await port.process(2) }
        try await Task.sleep(for: .milliseconds(20))
        #expect(order.all.isEmpty)  // the second packet did not overtake the held first one
        await gate.open()
        _ = await (first.value, second.value)
        #expect(order.all == ["done 1", "done 2"])
        _ = plumber
    }

    @Test("a stage may add ports and remove its own port while packets flow")
    func reconfigureFromStage() async throws {
        let port = PlumbingPort<Int>(1)
        let extra = PlumbingPort<Int>(2)
        let plumber = PipelinePlumber<Int>()
        try plumber.addPort(port)
        plumber.addStage("rewire") { [weak plumber] _ in
            guard let plumber else { return .stop("gone") }
            try plumber.addPort(extra)
            plumber.removePort(port)
            return .pass
        }
        #expect(await port.process(1).wasDelivered)
        #expect(plumber.portNumbers == [2])
        #expect(await port.process(2).stop?.reason?.isPortNotConnected == true)
        #expect(await extra.process(3).wasDelivered)
    }
}
