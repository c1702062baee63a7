import ActionPipe
import Synchronization
import Testing

/// Captured by a plumber's sink: its `deinit` calls back into the port. If the port ever
/// dropped the plumber's last reference with its lock held, the process would hang.
private final class PortReentrant: Sendable {
    static let released = Atomic<Int>(0)
    let port: PlumbingPort<Int>
    init(_ port: PlumbingPort<Int>) { self.port = port }
    deinit {
        port.emit(-1)
        _ = port.isConnected
        Self.released.add(1, ordering: .relaxed)
    }
}

@Suite("Plumbing: a user deinit that calls back into the port never runs under its lock")
struct PlumbDeinitReentryTests {
    static let rounds = 5_000

    @Test("Plumbers dropped on one thread while another emits on their port")
    func plumbersDroppedWhileEmitting() async {
        let port = PlumbingPort<Int>(1)
        let before = PortReentrant.released.load(ordering: .relaxed)
        let done = Atomic<Bool>(false)
        let finished = await runOnThreads(2) { thread in
            if thread == 0 {
                for round in 0..<Self.rounds {
                    let capture = PortReentrant(port)
                    let plumber = PipelinePlumber<Int>()
                    plumber.sink { _ in
                        withExtendedLifetime(capture) {}
                    }
                    _ = try? plumber.addPort(port)
                    port.emit(round)
                }
                done.store(true, ordering: .releasing)
            } else {
                // Reads the port's plumber as often as it can while plumbers come and go
                // (bounded: at most 50 per plumber).
                var reads = 0
                while !done.load(ordering: .acquiring), reads < 50 * Self.rounds {
                    _ = port.isConnected
                    port.emit(reads)
                    reads += 1
                }
            }
        }
        #expect(finished, "a thread did not finish: a deinit ran under the port's lock")
        // A packet still queued keeps the plumber it was emitted into until it has run
        // (issue 31): the port's task may release the last plumbers after the threads end.
        _ = await eventually {
            PortReentrant.released.load(ordering: .relaxed) - before == Self.rounds
        }
        #expect(PortReentrant.released.load(ordering: .relaxed) - before == Self.rounds)
    }
}
