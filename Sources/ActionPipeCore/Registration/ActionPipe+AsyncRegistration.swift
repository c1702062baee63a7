extension ActionPipe {
    // No `on(_:_:)` shorthand for throwing actions: Swift 6.3 cannot convert a closure's
    // inferred error type to `throws(Kind.Failure)` while `Kind` is inferred from the key path.

    /// Registers the `async throws` closure `body` as this pipe's handler for `action`,
    /// without conditions, replacing any earlier one.
    ///
    /// - Returns: A token that removes the handler.
    /// - Complexity: Amortised O(1); the chain's next call rebuilds its snapshot once.
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
