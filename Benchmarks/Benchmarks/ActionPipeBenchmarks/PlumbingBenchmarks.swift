// Benchmarks of the plumbing (issue 7) against its peers, in the same run as the core's.
// Names start with the part's prefix; Scripts/targets/ holds the rows `./run` prints.

import ActionPipe
import Benchmark
import OpenCombine

/// A plumber whose 4 stages each add one to the payload, with a sink that consumes the
/// packet: the subject of the target, and of the port and async variants.
private func makePlumbAdder(name: String) -> PipelinePlumber<Int> {
    let plumber = PipelinePlumber<Int>(name: name)
    for index in 0..<4 {
        plumber.addStage("add\(index)") { packet in
            packet.payload &+= 1
            return .pass
        }
    }
    plumber.sink { packet in blackHole(packet.payload) }
    return plumber
}

/// Registers the plumbing (issue 7) benchmarks.
func registerPlumbingBenchmarks() {
    // Target: a synchronous packet through 4 passing stages into a sink, against 4 closures
    // called in turn by hand.
    let plumber = makePlumbAdder(name: "send")
    check(plumber.send(0, from: 100).delivered?.payload, 4, "4-stage plumber")
    Benchmark("Plumb 4 stages, send") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(plumber.send(i, from: 100).wasDelivered)
        }
    }

    let closures4 = makeClosures(4)
    check(callInTurn(closures4, 0), 4, "4 closures")
    Benchmark("Plumb Baseline 4 closures") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(callInTurn(closures4, i))
        }
    }

    // The same plumber fed through a port: the port claims itself for the packet (two lock
    // round trips) so that its packets stay in order.
    let portPlumber = makePlumbAdder(name: "port")
    let port = PlumbingPort<Int>(100)
    do {
        try portPlumber.addPort(port)
    } catch {
        fatalError("cannot connect the benchmark port: \(error)")
    }
    Benchmark("Plumb 4 stages, port emit") { benchmark in
        for i in benchmark.scaledIterations {
            port.emit(i)
        }
    }

    // The async entry point with the same synchronous stages (no suspension).
    let asyncPlumber = makePlumbAdder(name: "async")
    Benchmark("Plumb 4 stages, await process") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(await asyncPlumber.process(i, from: 100).wasDelivered)
        }
    }

    // A stage that really suspends: 4 stages, the second of which yields, through a port.
    let yielding = PipelinePlumber<Int>(name: "yield")
    yielding.addStage("add0") { packet in
        packet.payload &+= 1
        return .pass
    }
    yielding.addStage("yield") { packet in
        await Task.yield()
        packet.payload &+= 1
        return .pass
    }
    yielding.addStage("add2") { packet in
        packet.payload &+= 1
        return .pass
    }
    yielding.addStage("add3") { packet in
        packet.payload &+= 1
        return .pass
    }
    yielding.sink { packet in blackHole(packet.payload) }
    Benchmark(
        "Plumb 4 stages with a yielding one, await process",
        configuration: .init(scalingFactor: .kilo)
    ) { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(await yielding.process(i, from: 100).wasDelivered)
        }
    }

    // Peer: OpenCombine, a subject, 4 map stages and a sink, per send.
    let subject = PassthroughSubject<Int, Never>()
    nonisolated(unsafe) var received = 0
    let subscription =
        subject
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .map { $0 &+ 1 }
        .sink { received = $0 }
    subject.send(0)
    check(received, 4, "OpenCombine 4 maps")
    Benchmark("Plumb Peer OpenCombine 4 maps") { benchmark in
        for i in benchmark.scaledIterations {
            subject.send(i)
            blackHole(received)
        }
        blackHole(subscription)
    }
}
