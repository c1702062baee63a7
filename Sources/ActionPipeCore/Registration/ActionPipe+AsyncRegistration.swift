extension ActionPipe {
    // No `on(_:_:)` shorthand for throwing actions: Swift 6.3 cannot convert a closure
    // literal's inferred error type to `throws(Kind.Failure)` while `Kind` is still being
    // inferred from the key path. `on(\.x).handle { ... }` knows `Kind` and works.

    /// Registers the `async throws` closure `body` as this pipe's handler for `action`,
    /// without conditions. Registering again replaces the handler.
    ///
    /// ```swift
    /// pipe.on(\.fetchTitle) { process in
    ///     try await Task.sleep(for: .milliseconds(1))
    ///     return "Document \(process.arguments)"
    /// }
    /// ```
    ///
    /// - Returns: A token that removes the handler.
    ///
    /// - Complexity: Amortised O(1) in the number of handlers and pipes: the chain is marked
    ///   changed, and its next call rebuilds its snapshot once.
    @discardableResult
    public func on<each Argument, Result>(
        _ action: KeyPath<Actions, AsyncAction<repeat each Argument, Result>> & Sendable,
        _ body:
            nonisolated(nonsending) @escaping @Sendable (
                inout ActionProcess<ActionKind.Async, repeat each Argument, Result>
            ) async throws -> Result?
    ) -> RegistrationToken {
        on(action).handle(body)
    }
}
