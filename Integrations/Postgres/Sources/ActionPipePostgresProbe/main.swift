// A second process for the tests and the measurements. It bridges a bus to PostgreSQL on
// 127.0.0.1, then either receives events and summarises them, or publishes them:
//
//   ActionPipePostgresProbe receive PORT CHANNEL fast|durable COUNT
//       prints "ready" once listening, then, after COUNT events (or 60 s):
//       "received N ordered true|false p50_us X p99_us Y"
//   ActionPipePostgresProbe publish PORT CHANNEL fast|durable COUNT [INTERVAL_US]
//       publishes COUNT events (INTERVAL_US apart), waits until they are sent,
//       prints "published N"
//   ActionPipePostgresProbe measure PORT CHANNEL - COUNT
//       events per second: raw postgres-nio NOTIFY/LISTEN, then two bridges in this
//       process, fast and durable (Scripts/measure runs it against a server of its own)
import ActionPipeBus
import ActionPipePostgres
import Foundation
import Synchronization

/// The event the probe exchanges; `sentAt` is the wall clock at publish, in nanoseconds, for
/// the latency between two processes on one machine.
struct ProbeEvent: BusEvent, Codable {
    let index: Int
    let sentAt: Int64
}

func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Writes `line` to standard output at once (unbuffered: the test reads it while we run).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data("\(line)\n".utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("ActionPipePostgresProbe: \(message)\n".utf8))
    exit(2)
}

// Connection changes are expected here; anything else is worth a line on standard error.
Diagnostics.handler = { diagnostic in
    guard diagnostic.kind != .bridgeConnection else { return }
    FileHandle.standardError.write(Data("\(diagnostic)\n".utf8))
}

let arguments = CommandLine.arguments
guard arguments.count >= 6, let port = Int(arguments[2]), let count = Int(arguments[5]) else {
    fail("usage: receive|publish PORT CHANNEL fast|durable COUNT")
}
if arguments[1] == "measure" {
    try await measure(port: port, channel: arguments[3], count: count)
    exit(0)
}
let mode: PostgresBusConfiguration.Mode = arguments[4] == "durable" ? .durable() : .fast
let configuration = PostgresBusConfiguration(
    connection: .init(
        host: "127.0.0.1", port: port, username: "postgres", password: nil,
        database: "postgres", tls: .disable),
    channel: arguments[3], mode: mode)
let bus = EventBus(name: "probe")
let shared = try PostgresBusBridge(bus: bus, configuration: configuration)
shared.bridge(BusTopic(ProbeEvent.self))
let running = Task { try await shared.run() }

switch arguments[1] {
case "receive":
    let received = Mutex<[(index: Int, latency: Int64)]>([])
    let (done, finished) = AsyncStream.makeStream(of: Void.self)
    let token = bus.subscribe(BusTopic(ProbeEvent.self)) { event in
        let total = received.withLock { list in
            list.append((event.index, now() - event.sentAt))
            return list.count
        }
        if total == count { finished.yield() }
    }
    await shared.waitUntilListening()
    say("ready")
    let timeout = Task {
        try await Task.sleep(for: .seconds(60))
        finished.yield()
    }
    for await _ in done { break }
    timeout.cancel()
    let list = received.withLock { $0 }
    let ordered = list.map(\.index) == Array(0..<list.count)
    let latencies = list.map(\.latency).sorted()
    let p50 = latencies.isEmpty ? 0 : latencies[latencies.count / 2] / 1_000
    let p99 = latencies.isEmpty ? 0 : latencies[latencies.count * 99 / 100] / 1_000
    say("received \(list.count) ordered \(ordered) p50_us \(p50) p99_us \(p99)")
    token.cancel()
case "publish":
    await shared.waitUntilListening()
    let interval = arguments.count > 6 ? Int(arguments[6]) ?? 0 : 0
    for index in 0..<count {
        bus.publish(ProbeEvent(index: index, sentAt: now()))
        if interval > 0 { try await Task.sleep(for: .microseconds(interval)) }
    }
    while shared.busBridge.pendingCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
    say("published \(count)")
default:
    fail("unknown command \(arguments[1])")
}
running.cancel()
_ = try? await running.value
