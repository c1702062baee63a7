import ActionPipe
import Synchronization
import Testing

/// A payload that counts how many of it are alive, and the most there ever were.
private final class Blob: Sendable {
    static let alive = Atomic<Int>(0)
    static let peak = Atomic<Int>(0)
    let index: Int

    init(_ index: Int) {
        self.index = index
        let now = Self.alive.add(1, ordering: .sequentiallyConsistent).newValue
        _ = Self.peak.max(now, ordering: .sequentiallyConsistent)
    }

    deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
}

@Suite("Plumbing: a port's queue keeps no packet it has processed", .serialized)
struct PlumbQueueMemoryTests {
    @Test("Under steady load the queue never empties, yet processed packets are released")
    func processedPacketsReleased() async throws {
        let count = 2_000
        let port = PlumbingPort<Blob>(1)
        let delivered = Atomic<Int>(0)
        let allDelivered = TreeGate()
        // Each packet's stage emits the one two ahead on the same port (the first emits two):
        // the port is busy, so they wait in its queue, which is never empty until the end.
        let plumber = try PipelinePlumber<Blob>().addPort(port)
        plumber.addStage("ahead") { packet in
            let index = packet.payload.index
            if index == 0 { port.emit(Blob(1)) }
            if index + 2 < count { port.emit(Blob(index + 2)) }
            return .pass
        }
        plumber.sink { _ in
            if delivered.add(1, ordering: .relaxed).newValue == count { allDelivered.open() }
        }
        Blob.peak.store(Blob.alive.load(ordering: .sequentiallyConsistent), ordering: .relaxed)
        let before = Blob.alive.load(ordering: .sequentiallyConsistent)
        port.emit(Blob(0))
        // The queued packets run on the port's drain, after `emit` returns: wait for the
        // count, not for a time.
        await allDelivered.wait()
        #expect(delivered.load(ordering: .relaxed) == count)
        // At most the packet running and the two it has queued are alive at once.
        #expect(Blob.peak.load(ordering: .sequentiallyConsistent) - before <= 4)
        // The drain lets go of the last packet only after its sink has returned.
        _ = await eventually { Blob.alive.load(ordering: .sequentiallyConsistent) == before }
        #expect(Blob.alive.load(ordering: .sequentiallyConsistent) == before)
        withExtendedLifetime(plumber) {}
    }
}

/// What a sink or stop observer captures, counted.
private final class SinkCapture: Sendable {
    static let alive = Atomic<Int>(0)
    init() { Self.alive.add(1, ordering: .sequentiallyConsistent) }
    deinit { Self.alive.subtract(1, ordering: .sequentiallyConsistent) }
}

@Suite("Plumbing: replaced configuration is released", .serialized)
struct PlumbReplacedConfigurationTests {
    @Test("Replacing the sink and the stop observer releases what the replaced ones captured")
    func replacedSinksReleased() {
        let before = SinkCapture.alive.load(ordering: .sequentiallyConsistent)
        let plumber = PipelinePlumber<Int>()
        let port = PlumbingPort<Int>(1)
        _ = try? plumber.addPort(port)
        for round in 0..<1_000 {
            let sinkCapture = SinkCapture()
            let stopCapture = SinkCapture()
            plumber.sink { _ in withExtendedLifetime(sinkCapture) {} }
            plumber.onStop { _ in withExtendedLifetime(stopCapture) {} }
            if round % 10 == 0 { port.emit(round) }
        }
        // Only the current sink and stop observer (and their captures) remain.
        #expect(SinkCapture.alive.load(ordering: .sequentiallyConsistent) - before == 2)
        plumber.sink { _ in }
        plumber.onStop { _ in }
        #expect(SinkCapture.alive.load(ordering: .sequentiallyConsistent) - before == 0)
    }

    @Test("A sink replaced while a packet runs on it lives until that packet ends")
    func replacedUnderARunningPacket() async {
        let before = SinkCapture.alive.load(ordering: .sequentiallyConsistent)
        let entered = TreeGate()
        let release = TreeGate()
        let plumber = PipelinePlumber<Int>()
        plumber.addStage("wait") { _ in
            entered.open()
            await release.wait()
            return .pass
        }
        let delivered = Atomic<Int>(0)
        do {
            let capture = SinkCapture()
            plumber.sink { _ in
                withExtendedLifetime(capture) { _ = delivered.add(1, ordering: .relaxed) }
            }
        }
        async let outcome = plumber.process(1, from: 1)
        await entered.wait()
        plumber.sink { _ in }  // replaced while the packet runs on the old configuration
        // The running packet still holds the old sink: it delivers to it.
        #expect(SinkCapture.alive.load(ordering: .sequentiallyConsistent) - before == 1)
        release.open()
        _ = await outcome
        #expect(delivered.load(ordering: .relaxed) == 1)
        // The packet has ended: the old sink and its capture are gone.
        #expect(SinkCapture.alive.load(ordering: .sequentiallyConsistent) - before == 0)
    }
}
