import ActionPipe
import Logging

// Where ActionPipe reports to swift-log: its diagnostics, and through its instrumentation
// hook one debug line per action call, publish, tree item and plumbing packet.

/// Sends what ActionPipe reports, and what it does, to swift-log.
public enum ServiceInstrumentation {
    /// Makes `logger` receive ActionPipe's diagnostics (misuses and errors nobody was there
    /// to receive) and a line per operation (at debug level), process-wide; call it once,
    /// at start-up.
    public static func install(logger: Logger) {
        Diagnostics.handler = diagnosticsHandler(logger: logger)
        Instrumentation.install(LogInstrument(logger: logger))
    }

    /// A `Diagnostics` handler that logs each diagnostic as a warning, with its kind as
    /// metadata; a bus bridge's connection that comes up (`--postgres`) is a notice. Tests
    /// scope it with `Diagnostics.withHandler`.
    public static func diagnosticsHandler(logger: Logger) -> @Sendable (Diagnostic) -> Void {
        { diagnostic in
            let healthy = diagnostic.kind == .bridgeConnection && diagnostic.error == nil
            logger.log(
                level: healthy ? .notice : .warning, "\(diagnostic.message)",
                metadata: [
                    "actionpipe.kind": "\(diagnostic.kind.rawValue)",
                    "actionpipe.error": "\(diagnostic.error.map { "\($0)" } ?? "none")",
                ])
        }
    }
}

/// An ActionPipe instrument that logs every call, publish, packet and tree item when it
/// ends: `call placeOrder on validation: succeeded`, with its duration as metadata.
/// A failure is a warning; the rest is debug, so a production log level hides it.
public struct LogInstrument: Instrument {
    let logger: Logger

    /// An instrument that logs to `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Nothing to carry: the library measures the duration.
    public func begin(_ operation: InstrumentedOperation) -> (any Sendable)? { nil }

    /// Logs the operation, its outcome and its duration.
    public func end(
        _ operation: InstrumentedOperation, context: (any Sendable)?, duration: Duration,
        outcome: InstrumentedOutcome
    ) {
        let metadata: Logger.Metadata = [
            "actionpipe.kind": "\(operation.kind.rawValue)",
            "actionpipe.duration": "\(duration)",
        ]
        if case .failed = outcome {
            logger.warning("\(operation): \(outcome)", metadata: metadata)
        } else {
            logger.debug("\(operation): \(outcome)", metadata: metadata)
        }
    }
}
