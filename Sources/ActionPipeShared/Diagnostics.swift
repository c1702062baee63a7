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

/// Where every part reports a ``Diagnostic``: a runtime warning (Xcode's purple warning,
/// else a line on standard error), or the ``handler`` you install.
public enum Diagnostics {
    /// Where diagnostics go, process-wide (`nil`: the runtime warning); called on the thread
    /// that noticed the problem, with no library lock held.
    public static var handler: (@Sendable (Diagnostic) -> Void)? {
        get { _handler.withLock { $0 } }
        set { _handler.withLock { $0 = newValue } }
    }

    /// Runs `operation` with `handler` receiving what is reported on this thread meanwhile,
    /// instead of ``handler``; scopes nest.
    @discardableResult
    public static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: () throws -> Result
    ) rethrows -> Result {
        try _threadScope.withCurrent(_Scope(handler), operation: operation)
    }

    /// Runs the async `operation` with `handler` receiving what its task, and the tasks it
    /// starts (not `Task.detached`), report; scopes nest.
    ///
    /// - Complexity: O(1) to enter; a report in the scope reads one task-local value.
    @discardableResult
    public nonisolated(nonsending) static func withHandler<Result>(
        _ handler: @escaping @Sendable (Diagnostic) -> Void,
        operation: nonisolated(nonsending) () async throws -> Result
    ) async rethrows -> Result {
        try await $_taskScope.withValue(_Scope(handler), operation: operation)
    }

    /// Runs `operation` and returns what was reported on this thread meanwhile, instead of
    /// sending it on: the way to test a diagnostic.
    public static func record(_ operation: () throws -> Void) rethrows -> [Diagnostic] {
        let recorded = LockedValue<[Diagnostic]>([])
        try withHandler(
            { diagnostic in recorded.withLock { $0.append(diagnostic) } }, operation: operation)
        return recorded.withLock { $0 }
    }

    /// Runs the async `operation` and returns what its task, and the tasks it starts,
    /// reported meanwhile.
    public nonisolated(nonsending) static func record(
        _ operation: nonisolated(nonsending) () async throws -> Void
    ) async rethrows -> [Diagnostic] {
        let recorded = LockedValue<[Diagnostic]>([])
        try await withHandler(
            { diagnostic in recorded.withLock { $0.append(diagnostic) } }, operation: operation)
        return recorded.withLock { $0 }
    }

    /// Sends `diagnostic` to the thread's scope, else the task's, else ``handler``.
    package static func report(_ diagnostic: Diagnostic) {
        if _threadScope.borrowCurrent({ $0.handler(diagnostic) }) != nil { return }
        if let scope = _taskScope { return scope.handler(diagnostic) }
        if let handler { return handler(diagnostic) }
        _warn(diagnostic)
    }

    private static let _handler = LockedValue<(@Sendable (Diagnostic) -> Void)?>(nil)

    private static let _threadScope = ThreadScope<_Scope>()

    @TaskLocal private static var _taskScope: _Scope?

    private final class _Scope: Sendable {
        let handler: @Sendable (Diagnostic) -> Void
        init(_ handler: @escaping @Sendable (Diagnostic) -> Void) { self.handler = handler }
    }

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
}
