import ActionPipeConcurrency

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
#if canImport(os)
    import os
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

    /// Runs `operation` with `handler` receiving the diagnostics reported on this thread
    /// while it runs (by `operation` and the synchronous code it calls), instead of
    /// ``handler``. Diagnostics from other threads (an executor's jobs) go to an enclosing
    /// async scope of theirs, else to ``handler``; scope async code with the async form.
    /// Scopes nest: the innermost handler receives.
    ///
    /// ```swift
    /// Diagnostics.withHandler({ logger.warning("\($0)") }, operation: runImport)
    /// ```
    ///
    /// Synchronous on purpose: a scope bound to the thread ends exactly when `operation`
    /// returns, with no task-local storage involved.
    @discardableResult
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        try _threadScope.withCurrent(_Scope(handler), operation: operation)
    }

    /// Runs the async `operation` with `handler` receiving the diagnostics reported by its
    /// task, across suspensions, and by the tasks it starts (child tasks and `Task {}`,
    /// which inherit the scope; not `Task.detached`), instead of ``handler``. A synchronous
    /// scope inside it receives what is reported while that scope runs. Scopes nest: the
    /// innermost handler receives.
    ///
    /// ```swift
    /// // However many threads the import hops, its diagnostics reach this logger.
    /// await Diagnostics.withHandler({ logger.warning("\($0)") }, operation: importer.run)
    /// ```
    ///
    /// - Complexity: O(1) to enter; a diagnostic reported in the scope reads one task-local
    ///   value.
    @discardableResult
    public nonisolated(nonsending) static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        try await $_taskScope.withValue(_Scope(handler), operation: operation)
    }

    /// Runs `operation` and returns what was reported on this thread while it ran, instead
    /// of sending it on: the way to test a diagnostic.
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

    /// Runs the async `operation` and returns what its task, and the tasks it starts,
    /// reported while it ran, instead of sending it on: the way to test a diagnostic that
    /// async code reports.
    ///
    /// ```swift
    /// let reported = await Diagnostics.record {
    ///     await pipe.refresh()
    /// }
    /// ```
    public nonisolated(nonsending) static func record(
        _ operation: nonisolated(nonsending) () async throws -> Void
    ) async rethrows -> [Diagnostic] {
        let recorder = _Recorder()
        try await withHandler(recorder.append, operation: operation)
        return recorder.diagnostics
    }

    /// Sends `diagnostic` to the innermost scoped handler (this thread's synchronous scope,
    /// which always lies inside any task scope active on the thread; else the task's), else
    /// ``handler``, else the default.
    package static func report(_ diagnostic: Diagnostic) {
        if _threadScope.borrowCurrent({ $0.handler(diagnostic) }) != nil { return }
        if let scope = _taskScope { return scope.handler(diagnostic) }
        if let handler { return handler(diagnostic) }
        _warn(diagnostic)
    }

    private static let _handler = LockedValue<(@Sendable (Diagnostic) -> Void)?>(nil)

    /// The thread's innermost `withHandler` scope (unretained: the scope's frame keeps it).
    private static let _threadScope = ThreadScope<_Scope>()

    /// The task's innermost async `withHandler` scope.
    @TaskLocal private static var _taskScope: _Scope?

    /// A scoped handler, in an object so the thread's slot can point at it.
    private final class _Scope: Sendable {
        let handler: @Sendable (Diagnostic) -> Void
        init(_ handler: @escaping @Sendable (Diagnostic) -> Void) { self.handler = handler }
    }

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
