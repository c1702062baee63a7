import ActionPipe
import ActionPipePostgres
import Foundation
import ServiceLifecycle
import Synchronization
import Testing

/// Against a real PostgreSQL server each test starts and stops (``withPostgres(_:)``);
/// serialized, so that one server at a time shares the machine's cores.
@Suite("PostgreSQL bridge, against a real server", .serialized, .timeLimit(.minutes(5)))
struct PostgresBridgeTests {
    @Test(
        "two bridges on two connections exchange 10,000 events of 3 types: none lost, none twice, each publisher's order kept",
        arguments: ["durable", "fast"])
    func tenThousand(mode: String) async throws {
        try await withPostgres { server in
            let recorded = PgDiagnostics()
            try await Diagnostics.withHandler(recorded.append) {
                let mode: PostgresBusConfiguration.Mode = mode == "durable" ? .durable() : .fast
                let a = try pgBridge("a", server, mode)
                let b = try pgBridge("b", server, mode)
                let inA = PgInbox(a.busBridge.bus)
                let inB = PgInbox(b.busBridge.bus)
                try await withRunning([a, b]) {
                    // Both publish at once, from two tasks.
                    async let fromA: Void = pgPublish(a.busBridge.bus, "a", 0..<5_000)
                    async let fromB: Void = pgPublish(b.busBridge.bus, "b", 0..<5_000)
                    _ = await (fromA, fromB)
                    await inA.wait(for: 5_000)
                    await inB.wait(for: 5_000)
                }
                #expect(inB.items == pgExpected("a", 5_000))
                #expect(inA.items == pgExpected("b", 5_000))
            }
            #expect(recorded.all.filter { $0.kind == .bridgeEventDropped }.isEmpty)
        }
    }

    @Test("a second OS process receives, in order, what this process publishes")
    func secondProcess() async throws {
        try await withPostgres { server in
            let probe = try Probe.start(["receive", "\(server.port)", "probe", "fast", "500"])
            defer { probe.terminate() }
            try #require(await probe.nextLine() == "ready")
            let shared = try pgBridge("test", server, .fast, channel: "probe")
            shared.bridge(BusTopic(ProbeEvent.self))
            try await withRunning([shared]) {
                for index in 0..<500 {
                    shared.busBridge.bus.publish(ProbeEvent(index: index, sentAt: 0))
                }
                let summary = await probe.nextLine()
                #expect(
                    summary?.hasPrefix("received 500 ordered true") == true,
                    "\(summary ?? "nothing")")
            }
        }
    }

    @Test(
        "the server stops mid-stream and restarts: durable mode delivers everything, once, in order"
    )
    func serverRestart() async throws {
        try await withPostgres { server in
            let recorded = PgDiagnostics()
            try await Diagnostics.withHandler(recorded.append) {
                let a = try pgBridge("a", server, .durable())
                let b = try pgBridge("b", server, .durable())
                let inB = PgInbox(b.busBridge.bus)
                try await withRunning([a, b]) {
                    pgPublish(a.busBridge.bus, "a", 0..<300)
                    await inB.wait(for: 1)
                    try server.stopServer()
                    // Published while the server is down: they wait in the outbox.
                    pgPublish(a.busBridge.bus, "a", 300..<600)
                    try server.startServer()
                    await inB.wait(for: 600)
                }
                #expect(inB.items == pgExpected("a", 600))
            }
            // The loss of the connections was reported.
            #expect(
                recorded.all.contains {
                    $0.kind == .bridgeConnection && $0.message.contains("reconnecting")
                })
        }
    }

    @Test(
        "a 100 KB event arrives whole in durable mode; fast mode refuses it with a typed error, reported"
    )
    func largePayload() async throws {
        try await withPostgres { server in
            let text = String((0..<100_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
            let recorded = PgDiagnostics()
            try await Diagnostics.withHandler(recorded.append) {
                for mode in [PostgresBusConfiguration.Mode.durable(), .fast] {
                    let channel = mode == .fast ? "large_fast" : "large_durable"
                    let a = try pgBridge("a", server, mode, channel: channel)
                    let b = try pgBridge("b", server, mode, channel: channel)
                    let received = Mutex<[String]>([])
                    let inB = PgInbox(b.busBridge.bus)
                    let token = b.busBridge.bus.subscribe(BusTopic(PgBlob.self)) { blob in
                        received.withLock { $0.append(blob.text) }
                    }
                    try await withRunning([a, b]) {
                        a.busBridge.bus.publish(PgBlob(text: text))
                        // An event after it: once it arrives, the blob had its chance.
                        a.busBridge.bus.publish(PgOrder(publisher: "a", index: 0))
                        await inB.wait(for: 1)
                    }
                    token.cancel()
                    if mode == .fast {
                        #expect(received.withLock { $0 }.isEmpty)
                    } else {
                        #expect(received.withLock { $0 } == [text])
                    }
                }
            }
            let refused = recorded.all.filter { $0.kind == .bridgeEventDropped }
            #expect(refused.count == 1)
            // The whole notification: the header and the JSON around the 100,000 letters.
            guard
                case .payloadTooLarge(let bytes, 7_999) = refused.first?.error as? PostgresBusError
            else {
                Issue.record("expected payloadTooLarge, got \(refused)")
                return
            }
            #expect(bytes > 100_000)
        }
    }

    @Test(
        "a malformed notification from another client is reported and skipped; the bridge goes on")
    func malformed() async throws {
        try await withPostgres { server in
            let recorded = PgDiagnostics()
            try await Diagnostics.withHandler(recorded.append) {
                for mode in [PostgresBusConfiguration.Mode.fast, .durable()] {
                    let channel = mode == .fast ? "mal_fast" : "mal_durable"
                    let a = try pgBridge("a", server, mode, channel: channel)
                    let b = try pgBridge("b", server, mode, channel: channel)
                    let inB = PgInbox(b.busBridge.bus)
                    try await withRunning([a, b]) {
                        try server.psql("NOTIFY \(channel), 'hello from psql'")
                        pgPublish(a.busBridge.bus, "a", 0..<3)
                        await inB.wait(for: 3)
                    }
                    #expect(inB.items == pgExpected("a", 3))
                }
            }
            let malformed = recorded.all.filter {
                $0.kind == .bridgeEventDropped && $0.message.contains("hello from psql")
            }
            // Each of the two modes' two bridges listened on the channel and reported it.
            #expect(malformed.count == 4)
        }
    }

    @Test("durable rows older than the retention window are deleted by cleanUp; younger ones stay")
    func retention() async throws {
        try await withPostgres { server in
            let a = try pgBridge("a", server, .durable(retention: .seconds(3_600)))
            let b = try pgBridge("b", server, .durable(retention: .seconds(3_600)))
            let inB = PgInbox(b.busBridge.bus)
            try await withRunning([a, b]) {
                pgPublish(a.busBridge.bus, "a", 0..<5)
                await inB.wait(for: 5)
            }
            // Three rows made two hours old: past the one-hour window.
            try server.psql(
                "UPDATE actionpipe_bus_events SET created_at = now() - interval '2 hours' "
                    + "WHERE id IN (SELECT id FROM actionpipe_bus_events ORDER BY id LIMIT 3)")
            #expect(try await a.transport.cleanUp() == 3)
            #expect(try await a.transport.cleanUp() == 0)
            #expect(inB.items == pgExpected("a", 5))
        }
    }

    @Test(
        "a bridge stops on graceful shutdown of its service group, and on cancellation, and is freed"
    )
    func stops() async throws {
        try await withPostgres { server in
            let shared = try pgBridge("a", server, .fast)
            let group = ServiceGroup(
                configuration: .init(
                    services: [.init(service: shared)], logger: .init(label: "test")))
            let running = Task { try await group.run() }
            await shared.waitUntilListening()
            await group.triggerGracefulShutdown()
            try await running.value
            #expect(!shared.transport.isListening)

            weak var weakOther: PostgresBusBridge?
            do {
                let other = try pgBridge("b", server, .fast)
                weakOther = other
                let task = Task { try await other.run() }
                await other.waitUntilListening()
                task.cancel()
                try await task.value
                #expect(!other.transport.isListening)
                #expect(other.busBridge.bus.subscriptionCount == 0)
            }
            // Stopped, nothing keeps the bridge, its transport or its bus.
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: .seconds(30))
            while weakOther != nil, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(weakOther == nil, "the stopped bridge was not freed within 30 s")
        }
    }
}

/// The event the probe process exchanges (the same wire name and fields as its own).
struct ProbeEvent: BusEvent, Codable {
    let index: Int
    let sentAt: Int64
}

/// The ActionPipePostgresProbe executable, run as a second process; its output read by line.
final class Probe: Sendable {
    private let process: Process
    private let lines: AsyncStream<String>

    private init(process: Process, lines: AsyncStream<String>) {
        self.process = process
        self.lines = lines
    }

    /// Starts the probe, built beside this test bundle.
    static func start(_ arguments: [String]) throws -> Probe {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var executable = folder.appendingPathComponent("ActionPipePostgresProbe")
        if !FileManager.default.isExecutableFile(atPath: executable.path) {
            // The test bundle may be a folder (`.xctest`) one level down.
            executable = folder.deletingLastPathComponent().appendingPathComponent(
                "ActionPipePostgresProbe")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        let buffer = Mutex<[UInt8]>([])
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            let complete = buffer.withLock { bytes -> [String] in
                bytes.append(contentsOf: data)
                var found: [String] = []
                while let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                    found.append(String(decoding: bytes[..<end], as: UTF8.self))
                    bytes.removeSubrange(...end)
                }
                return found
            }
            for line in complete { continuation.yield(line) }
        }
        try process.run()
        return Probe(process: process, lines: lines)
    }

    /// The next line the probe prints, or `nil` when it ends without one (or after 90 s).
    /// Called by one task at a time.
    func nextLine() async -> String? {
        await withTaskGroup(of: String?.self) { group in
            group.addTask { [lines] in
                var iterator = lines.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(90))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
