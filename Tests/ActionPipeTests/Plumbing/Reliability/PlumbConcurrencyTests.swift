import ActionPipe
import Testing

/// Many threads and tasks at once: nothing lost, per-port order kept, configuration
/// changes seen whole.
@Suite("Plumbing: concurrency")
struct PlumbConcurrencyTests {
    @Test("sends from several threads at once all arrive", .hangBound)
    func concurrentSends() async {
        let delivered = Counter()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("+1") { packet in
            packet.payload &+= 1
            return .pass
        }
        plumber.addStage("odd") { packet in packet.payload % 2 == 1 ? .pass : .stop("even") }
        plumber.sink { _ in delivered.increment() }
        let wrong = Counter()
        let finished = await runOnThreads(4) { thread in
            for i in 0..<5_000 {
                let outcome = plumber.send(i, from: thread)
                if outcome.wasDelivered != i.isMultiple(of: 2) { wrong.increment() }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(delivered.value == 10_000)
    }

    @Test(
        "concurrent ports with an async stage: every packet arrives, each port in order",
        .hangBound)
    func concurrentPorts() async throws {
        let inbox = PlumbInbox<PlumbingPacket<Int>>()
        let ports = (0..<4).map { PlumbingPort<Int>($0) }
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("yield") { packet in
            if packet.payload % 2 == 0 { await Task.yield() }
            return .pass
        }
        plumber.sink { inbox.put($0) }
        for port in ports { try plumber.addPort(port) }

        let perPort = 300
        let finished = await runOnThreads(4) { thread in
            for value in 0..<perPort { ports[thread].emit(value) }
        }
        #expect(finished)
        let received = await inbox.wait(for: 4 * perPort)
        #expect(received.count == 4 * perPort)
        for port in 0..<4 {
            #expect(received.filter { $0.port == port }.map(\.payload) == Array(0..<perPort))
        }
    }

    @Test(
        "awaited sends from many tasks through one port are served one at a time",
        .hangBound)
    func serialPort() async throws {
        let inside = Counter()
        let overlaps = Counter()
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>().addPort(port)
        plumber.addStage("exclusive") { _ in
            inside.increment()
            if inside.value > 1 { overlaps.increment() }
            await Task.yield()
            inside.decrement()
            return .pass
        }
        let delivered = await withTaskGroup(of: Bool.self) { group in
            for value in 0..<200 { group.addTask { await port.process(value).wasDelivered } }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(delivered == 200)
        #expect(overlaps.value == 0)
        _ = plumber
    }

    @Test(
        "stages added while packets flow: each packet sees a whole prefix of the stages",
        .hangBound)
    func addWhileSending() async {
        let plumber = PipelinePlumber<[Int]>()
        let wrong = Counter()
        let finished = await runOnThreads(3) { thread in
            if thread == 0 {
                for index in 0..<300 {
                    plumber.addStage("s\(index)") { packet in
                        packet.payload.append(index)
                        return .pass
                    }
                }
            } else {
                for _ in 0..<3_000 {
                    let seen = plumber.send([], from: thread).delivered?.payload ?? [-1]
                    if seen != Array(0..<seen.count) { wrong.increment() }
                }
            }
        }
        #expect(finished)
        #expect(wrong.value == 0)
        #expect(plumber.send([], from: 0).delivered?.payload == Array(0..<300))
    }

    @Test("ports added and removed while others emit", .hangBound)
    func portsChurn() async throws {
        let delivered = Counter()
        let plumber = PipelinePlumber<Int>()
        plumber.sink { _ in delivered.increment() }
        let steady = PlumbingPort<Int>(0)
        try plumber.addPort(steady)
        let finished = await runOnThreads(2) { thread in
            if thread == 0 {
                for value in 0..<2_000 { steady.emit(value) }
            } else {
                for number in 1...500 {
                    let port = PlumbingPort<Int>(number)
                    _ = try? plumber.addPort(port)
                    port.emit(number)
                    plumber.removePort(port)
                }
            }
        }
        #expect(finished)
        #expect(delivered.value == 2_500)
        #expect(plumber.portNumbers == [0])
    }
}
