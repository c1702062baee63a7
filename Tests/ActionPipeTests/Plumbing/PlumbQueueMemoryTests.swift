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
        // Each packet's stage emits the one two ahead on the same port (the first emits two):
        // the port is busy, so they wait in its queue, which is never empty until the end.
        let plumber = try PipelinePlumber<Blob>().addPort(port)
            .addStage("ahead") { packet in
                let index = packet.payload.index
                if index == 0 { port.emit(Blob(1)) }
                if index + 2 < count { port.emit(Blob(index + 2)) }
                return .pass
            }
            .sink { _ in delivered.add(1, ordering: .relaxed) }
        Blob.peak.store(Blob.alive.load(ordering: .sequentiallyConsistent), ordering: .relaxed)
        let before = Blob.alive.load(ordering: .sequentiallyConsistent)
        port.emit(Blob(0))
        // The queued packets run on the port's drain, after `emit` returns: wait for the
        // count (bounded, against a hang), not for a time.
        for _ in 0..<20_000 where delivered.load(ordering: .relaxed) < count {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(delivered.load(ordering: .relaxed) == count)
        // At most the packet running and the two it has queued are alive at once.
        #expect(Blob.peak.load(ordering: .sequentiallyConsistent) - before <= 4)
        #expect(Blob.alive.load(ordering: .sequentiallyConsistent) == before)
        withExtendedLifetime(plumber) {}
    }
}
