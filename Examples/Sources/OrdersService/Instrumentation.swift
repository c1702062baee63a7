import ActionPipe
import Logging

// Where ActionPipe reports to swift-log.

/// Sends what ActionPipe reports to swift-log.
public enum Instrumentation {
    /// Makes `logger` receive ActionPipe's diagnostics (misuses and errors nobody was there
    /// to receive), process-wide; call it once, at start-up.
    public static func install(logger: Logger) {
        Diagnostics.handler = diagnosticsHandler(logger: logger)

        // TODO(issue 20.7): feed the library's instrumentation hook to `logger` here, once it
        // exists: one debug line (or a span, through swift-distributed-tracing) per action
        // call, publish, observed set, tree item and plumbing packet, instead of the
        // per-route `trace` logging in Routes.swift. Do not invent its API before then.
    }

    /// A `Diagnostics` handler that logs each diagnostic as a warning, with its kind as
    /// metadata. Tests scope it with `Diagnostics.withHandler`.
    public static func diagnosticsHandler(logger: Logger) -> @Sendable (Diagnostic) -> Void {
        { diagnostic in
            logger.warning(
                "\(diagnostic.message)",
                metadata: [
                    "actionpipe.kind": "\(diagnostic.kind.rawValue)",
                    "actionpipe.error": "\(diagnostic.error.map { "\($0)" } ?? "none")",
                ])
        }
    }
}
