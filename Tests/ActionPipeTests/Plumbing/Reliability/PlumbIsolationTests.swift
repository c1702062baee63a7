import ActionPipe
import Testing

/// Where `process` runs a packet's async stages: on the caller's actor, without hopping
/// off it and back (the stages and `process` are `nonisolated(nonsending)`).
@Suite("Plumbing: process runs on its caller's actor")
struct PlumbIsolationTests {
    /// A plumber fed by port 1 whose two async stages record where they ran.
    private static func makeFlow(_ log: Log) throws -> (PipelinePlumber<Int>, PlumbingPort<Int>) {
        let port = PlumbingPort<Int>(1)
        let plumber = try PipelinePlumber<Int>(name: "isolation").addPort(port)
        plumber.addStage("first") { (packet: inout PlumbingPacket<Int>) async -> PlumbingVerdict in
            // Marked `async`: an async stage, though it does not suspend.
            log.append("first \(Self.place(#isolation))")
            return .pass
        }
        plumber.addStage("second") { packet in
            await Task.yield()  // a suspension does not move the packet off the actor
            log.append("second \(Self.place(#isolation))")
            packet.payload += 1
            return .pass
        }
        return (plumber, port)
    }

    private static func place(_ isolation: (any Actor)?) -> String {
        isolation === MainActor.shared ? "main" : (isolation == nil ? "none" : "other")
    }

    @Test("From the main actor, a plumber's process runs its async stages there")
    @MainActor
    func fromTheMainActor() async throws {
        let log = Log()
        let (plumber, _) = try Self.makeFlow(log)
        #expect(await plumber.process(5, from: 1).delivered?.payload == 6)
        #expect(log.all == ["first main", "second main"])
    }

    @Test("From the main actor, a port's process delivers (its stages run in the caller's task)")
    @MainActor
    func portFromTheMainActor() async throws {
        let log = Log()
        let (plumber, port) = try Self.makeFlow(log)
        #expect(await port.process(1).delivered?.payload == 2)
        #expect(log.all.count == 2)
        withExtendedLifetime(plumber) {}
    }

    @Test("From a task with no actor, the stages run with no actor either")
    func fromNoActor() async throws {
        let log = Log()
        let (plumber, _) = try Self.makeFlow(log)
        let delivered = await Task.detached { await plumber.process(1, from: 1).delivered?.payload }
            .value
        #expect(delivered == 2)
        #expect(log.all == ["first none", "second none"])
        withExtendedLifetime(plumber) {}
    }
}
