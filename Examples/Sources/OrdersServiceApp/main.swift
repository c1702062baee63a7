import ActionPipePostgres
import Foundation
import Hummingbird
import Logging
import OrdersService

// `swift run --package-path Examples OrdersServiceApp [--port N] [--postgres URL]`; the port
// is also read from $PORT, and the log level from $LOG_LEVEL (trace, debug, info, ...).
// Default: 8080, info, no database. `--postgres postgres://user[:password]@host[:port][/database]`
// shares the order events with the other instances given the same server (Examples/README.md).

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap {
        arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
    }
}
let port =
    option("--port").flatMap { Int($0) }
    ?? ProcessInfo.processInfo.environment["PORT"].flatMap { Int($0) } ?? 8080

var logger = Logger(label: "orders")
logger.logLevel =
    ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info

// `--postgres`: the order events cross through that server (durable mode: a table and a
// NOTIFY per event, on the channel "orders"). Without it: no database.
let postgres = option("--postgres").map { address in
    guard let url = URLComponents(string: address), let host = url.host, !host.isEmpty,
        ["postgres", "postgresql"].contains(url.scheme)
    else {
        FileHandle.standardError.write(
            Data("--postgres wants postgres://user[:password]@host[:port][/database]\n".utf8))
        exit(64)
    }
    let user = url.user ?? "postgres"
    return PostgresBusConfiguration(
        connection: .init(
            host: host, port: url.port ?? 5432, username: user, password: url.password,
            database: url.path.split(separator: "/").first.map(String.init) ?? user,
            tls: .disable),
        channel: "orders", mode: .durable())
}

ServiceInstrumentation.install(logger: logger)
let service = try OrdersService(logger: logger)
let shared = try postgres.map { try PostgresBusBridge(bus: service.bus, configuration: $0) }
let bridging = shared.map { shared in
    service.share(through: shared.busBridge)
    Task {
        await shared.waitUntilListening()
        logger.info("sharing order events through PostgreSQL, channel orders")
    }
    return Task { try await shared.run() }  // reconnects after a drop; returns when cancelled
}
try await buildApplication(service, port: port, logger: logger).runService()  // to SIGINT/SIGTERM
bridging?.cancel()
try await bridging?.value
