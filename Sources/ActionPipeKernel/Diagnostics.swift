#if canImport(os)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The one channel through which every part of ActionPipe reports a ``Diagnostic``.
///
/// By default a diagnostic is a runtime warning: on Apple platforms a fault in the
/// `com.apple.runtime-issues` log, which Xcode shows as a purple warning at run time;
/// elsewhere one line on standard error. Install ``handler`` to send them elsewhere (a
/// logger, an assertion in debug builds), and `record(_:)` in a test to collect what
/// one piece of code reports.
///
/// ```swift
/// #if DEBUG
/// Diagnostics.handler = { diagnostic in assertionFailure("\(diagnostic)") }
/// #endif
/// ```
public enum Diagnostics {
    /// Where diagnostics go, process-wide; `nil` for the default runtime warning.
    ///
    /// Called on the thread that noticed the problem, with no library lock held. It must
    /// not block for long: a diagnostic can come from inside a call or a publish.
    public static var handler: (@Sendable (Diagnostic) -> Void)? {
        get { _handler.withLock { $0 } }
        set { _handler.withLock { $0 = newValue } }
    }

    /// Runs `operation` with `handler` receiving the diagnostics that `operation` reports
    /// from its own task (and the synchronous code it calls), instead of ``handler``.
    /// Diagnostics from other threads (an executor's jobs) still go to ``handler``.
    ///
    /// ```swift
    /// Diagnostics.withHandler({ logger.warning("\($0)") }, operation: runImport)
    /// ```
    @discardableResult
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        try $_scoped.withValue(handler) { try operation() }
    }

    /// Runs `operation` and returns what it reported from its own task (and the synchronous
    /// code it calls), instead of sending it on: the way to test a diagnostic.
    ///
    /// ```swift
    /// let reported = Diagnostics.record {
    ///     pipe.on(\.name) { _ in nil }
    /// }
    /// reported.map(\.kind)   // [.actionShadowed]
    /// ```
    public static func record(_ operation: () throws -> Void) rethrows -> [Diagnostic] {
        let recorder = _Recorder()
        try withHandler(recorder.append, operation: operation)
        return recorder.diagnostics
    }

    /// The async form of `record(_:)`.
    public static func record(_ operation: () async throws -> Void) async rethrows -> [Diagnostic] {
        let recorder = _Recorder()
        try await withHandler(recorder.append, operation: operation)
        return recorder.diagnostics
    }

    /// The async form of `withHandler(_:operation:)`.
    @discardableResult
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        try await $_scoped.withValue(handler) { try await operation() }
    }

    /// Sends `diagnostic` to the scoped handler, else ``handler``, else the default.
    package static func report(_ diagnostic: Diagnostic) {
        if let scoped = _scoped { return scoped(diagnostic) }
        if let handler { return handler(diagnostic) }
        _warn(diagnostic)
    }

    @TaskLocal private static var _scoped: (@Sendable (Diagnostic) -> Void)?
    private static let _handler = LockedValue<(@Sendable (Diagnostic) -> Void)?>(nil)

    /// The default: a runtime warning.
    private static func _warn(_ diagnostic: Diagnostic) {
        #if canImport(os)
            os_log(
                .fault, dso: #dsohandle, log: _runtimeIssues, "%{public}@",
                diagnostic.description)
        #else
            let line = Array("warning: \(diagnostic)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        #endif
    }

    #if canImport(os)
        private static let _runtimeIssues = OSLog(
            subsystem: "com.apple.runtime-issues", category: "ActionPipe")
    #endif

    /// Collects diagnostics for `record(_:)`.
    private final class _Recorder: Sendable {
        private let collected = LockedValue<[Diagnostic]>([])
        var diagnostics: [Diagnostic] { collected.withLock { $0 } }
        @Sendable func append(_ diagnostic: Diagnostic) {
            collected.withLock { $0.append(diagnostic) }
        }
    }
}
