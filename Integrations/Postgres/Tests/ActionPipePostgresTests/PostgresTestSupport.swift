import ActionPipe
import ActionPipePostgres
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// What the tests' events carry: who published them, and their index in that publisher's
/// sequence.
protocol PgTestEvent: BusEvent, Codable where Feedback == Void, Subtype == BusNoSubtype {
    var publisher: String { get }
    var index: Int { get }
    init(publisher: String, index: Int)
}

struct PgOrder: PgTestEvent {
    let publisher: String
    let index: Int
}

struct PgStock: PgTestEvent {
    let publisher: String
    let index: Int
}

struct PgNote: PgTestEvent {
    let publisher: String
    let index: Int
}

/// A large event: its text arrives whole or not at all.
struct PgBlob: BusEvent, Codable {
    let text: String
}

/// What one bus received from the others: each (type, publisher, index), in arrival order.
final class PgInbox: Sendable {
    private let state = Mutex<
        (items: [String], waiters: [(Int, CheckedContinuation<Void, Never>)])
    >(([], []))
    private let registrations = RegistrationBag()

    /// Records the remote events of the three test types on `bus`.
    init(_ bus: EventBus) {
        listen(PgOrder.self, on: bus)
        listen(PgStock.self, on: bus)
        listen(PgNote.self, on: bus)
    }

    private func listen<Event: PgTestEvent>(_ type: Event.Type, on bus: EventBus) {
        bus.subscribe(BusTopic(type)) { [weak self] event in
            guard case .remote = BusOrigin.current else { return }
            self?.append("\(Event.self) \(event.publisher) \(event.index)")
        }
        .store(in: registrations)
    }

    func append(_ item: String) {
        let ready = state.withLock { state in
            state.items.append(item)
            let count = state.items.count
            defer { state.waiters.removeAll { $0.0 <= count } }
            return state.waiters.filter { $0.0 <= count }.map(\.1)
        }
        for waiter in ready { waiter.resume() }
    }

    var items: [String] { state.withLock { $0.items } }

    /// Waits until `count` items arrived, or `timeout` passed; records an issue then.
    func wait(for count: Int, timeout: Duration = .seconds(120)) async {
        let arrived = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let now = self.state.withLock { state -> Bool in
                        if state.items.count >= count { return true }
                        state.waiters.append((count, continuation))
                        return false
                    }
                    if now { continuation.resume() }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            if !first { self.expire() }
            group.cancelAll()
            await group.waitForAll()
            return first
        }
        if !arrived {
            Issue.record("\(count) events expected within \(timeout); \(items.count) arrived")
        }
    }

    private func expire() {
        let stuck = state.withLock { state in
            defer { state.waiters = [] }
            return state.waiters.map(\.1)
        }
        for waiter in stuck { waiter.resume() }
    }
}

/// The items a publisher's `count` events of the three types make, in publish order:
/// the type cycles order, stock, note.
func pgExpected(_ publisher: String, _ count: Int) -> [String] {
    (0..<count).map { index in
        let type = ["PgOrder", "PgStock", "PgNote"][index % 3]
        return "\(type) \(publisher) \(index)"
    }
}

/// Publishes `count` events of the three types on `bus`, as `publisher`.
func pgPublish(_ bus: EventBus, _ publisher: String, _ range: Range<Int>) {
    for index in range {
        switch index % 3 {
        case 0: bus.publish(PgOrder(publisher: publisher, index: index))
        case 1: bus.publish(PgStock(publisher: publisher, index: index))
        default: bus.publish(PgNote(publisher: publisher, index: index))
        }
    }
}

/// A bridge of a new bus to `server`, bridging the three test types and `PgBlob`.
func pgBridge(
    _ name: String, _ server: PostgresServer, _ mode: PostgresBusConfiguration.Mode,
    channel: String = "bus"
) throws -> PostgresBusBridge {
    let configuration = PostgresBusConfiguration(
        connection: server.configuration, channel: channel, mode: mode,
        maximumReconnectDelay: .milliseconds(500))
    let shared = try PostgresBusBridge(
        bus: EventBus(name: name), configuration: configuration, instance: BusInstanceID(name))
    shared.bridge(BusTopic(PgOrder.self))
    shared.bridge(BusTopic(PgStock.self))
    shared.bridge(BusTopic(PgNote.self))
    shared.bridge(BusTopic(PgBlob.self))
    return shared
}

/// Diagnostics collected from the tasks of a test.
final class PgDiagnostics: Sendable {
    private let collected = Mutex<[Diagnostic]>([])
    @Sendable func append(_ diagnostic: Diagnostic) { collected.withLock { $0.append(diagnostic) } }
    var all: [Diagnostic] { collected.withLock { $0 } }
}

/// Runs `bridges` while `body` runs, then cancels them and checks they stopped.
func withRunning(
    _ bridges: [PostgresBusBridge], _ body: () async throws -> Void
) async throws {
    let runs = bridges.map { shared in Task { try await shared.run() } }
    do {
        for shared in bridges { await shared.waitUntilListening() }
        try await body()
    } catch {
        for run in runs { run.cancel() }
        throw error
    }
    for run in runs { run.cancel() }
    for run in runs { try await run.value }
}
