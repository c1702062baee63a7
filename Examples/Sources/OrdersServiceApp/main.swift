import Foundation
import Hummingbird
import Logging
import OrdersService

// `swift run --package-path Examples OrdersServiceApp [--port N]`; the port is also read
// from $PORT, and the log level from $LOG_LEVEL (trace, debug, info, ...). Default: 8080, info.

let arguments = CommandLine.arguments
let portArgument = arguments.firstIndex(of: "--port").flatMap {
    arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil
}
let port = portArgument ?? ProcessInfo.processInfo.environment["PORT"].flatMap { Int($0) } ?? 8080

var logger = Logger(label: "orders")
logger.logLevel =
    ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .info

ServiceInstrumentation.install(logger: logger)
let service = try OrdersService(logger: logger)
try await buildApplication(service, port: port, logger: logger).runService()
