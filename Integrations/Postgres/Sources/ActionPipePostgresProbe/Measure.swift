import ActionPipeBus
import ActionPipePostgres
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Counts arrivals and resumes one waiter when a target is reached.
final class Arrivals: Sendable {
    private let state = Mutex<(count: Int, target: Int, waiter: CheckedContinuation<Void, Never>?)>(
        (0, .max, nil))

    func add() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard state.count >= state.target else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait(for target: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.count >= target { return true }
                (state.target, state.waiter) = (target, continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Events per second over `elapsed`.
func rate(_ count: Int, _ elapsed: Duration) -> String {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return String(Int((Double(count) / seconds).rounded()))
}

/// Raw postgres-nio `NOTIFY`/`LISTEN` against the bridge, fast and durable, in one run: the
/// same count of events of about the same size, sent one at a time (as a bridge sends).
func measure(port: Int, channel: String, count: Int) async throws {
    let logger = Logger(label: "probe") { _ in SwiftLogNoOpLogHandler() }
    let connection = PostgresConnection.Configuration(
        host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres",
        tls: .disable)
    let clock = ContinuousClock()

    // Raw: the payload a fast bridge would send for the same event.
    let payload =
        "ap1\nabcdef0123456789\n1\nProbeEvent\nt\n{\"index\":1,\"sentAt\":1764000000000000000}"
    let listener = try await PostgresConnection.connect(
        configuration: connection, id: 1, logger: logger)
    let sender = try await PostgresConnection.connect(
        configuration: connection, id: 2, logger: logger)
    let raw = Arrivals()
    let rawChannel = channel + "_raw"
    let (ready, readyInput) = AsyncStream.makeStream(of: Void.self)
    let listening = Task {
        try await listener.listen(on: rawChannel) { notifications in
            readyInput.yield()
            var received = 0
            for try await _ in notifications {
                raw.add()
                received += 1
                if received == count { return }
            }
        }
    }
    for await _ in ready { break }
    let rawStart = clock.now
    for _ in 0..<count {
        try await sender.query("SELECT pg_notify(\(rawChannel), \(payload))", logger: logger)
    }
    await raw.wait(for: count)
    let rawElapsed = clock.now - rawStart
    try await listening.value
    try await listener.close()
    try await sender.close()
    say("raw NOTIFY/LISTEN: \(rate(count, rawElapsed)) events/s (\(count) events)")

    for mode in [PostgresBusConfiguration.Mode.fast, .durable()] {
        let name = mode == .fast ? "fast" : "durable"
        let configuration = PostgresBusConfiguration(
            connection: connection, channel: "\(channel)_\(name)", mode: mode)
        let a = try PostgresBusBridge(bus: EventBus(name: "a"), configuration: configuration)
        let b = try PostgresBusBridge(bus: EventBus(name: "b"), configuration: configuration)
        a.bridge(BusTopic(ProbeEvent.self))
        b.bridge(BusTopic(ProbeEvent.self))
        let arrivals = Arrivals()
        let token = b.busBridge.bus.subscribe(BusTopic(ProbeEvent.self)) { _ in arrivals.add() }
        let runs = [Task { try await a.run() }, Task { try await b.run() }]
        await a.waitUntilListening()
        await b.waitUntilListening()
        let start = clock.now
        for index in 0..<count { a.busBridge.bus.publish(ProbeEvent(index: index, sentAt: 0)) }
        await arrivals.wait(for: count)
        let elapsed = clock.now - start
        for run in runs { run.cancel() }
        for run in runs { _ = try? await run.value }
        token.cancel()
        say("bridge, \(name): \(rate(count, elapsed)) events/s (\(count) events)")
    }
}
