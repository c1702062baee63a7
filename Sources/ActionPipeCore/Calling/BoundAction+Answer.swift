extension BoundAction {
    /// The error of `answer` (a call that must be answered), built only when it failed.
    @usableFromInline
    func _unanswered(_ arguments: repeat each Argument) -> UnansweredActionError {
        UnansweredActionError(
            action: key.name, arguments: ActionTrace.describe(repeat each arguments),
            chain: pipe.chainNames)
    }
}

extension BoundAction where Kind == ActionKind.Sync {
    /// Calls the action, for a chain that must answer: a missing registration is an error
    /// at the call instead of a `nil` to unwrap (`let total: Int = try pipe.x.answer(1)`).
    ///
    /// - Throws: ``UnansweredActionError`` when no handler ran or the last one returned
    ///   `nil`; the handlers that ran are not undone.
    /// - Complexity: As the call (but it retains the pipe, a count every caller shares);
    ///   O(*c*) more to build the error, for a chain of *c* pipes.
    @inlinable
    public func answer(_ arguments: repeat each Argument) throws(UnansweredActionError) -> Result {
        if let value = (copy self)(repeat each arguments) { return value }
        throw _unanswered(repeat each arguments)
    }
}

extension BoundAction where Kind: ThrowingActionKind {
    /// Calls the throwing action, for a chain that must answer.
    ///
    /// - Throws: The handler's error, of the action's error type, unchanged; or
    ///   ``UnansweredActionError`` when no handler answered.
    /// - Complexity: As the call; O(*c*) more to build the error, for a chain of *c* pipes.
    @inlinable
    public func answer(_ arguments: repeat each Argument) throws -> Result {
        if let value = try (copy self)(repeat each arguments) { return value }
        throw _unanswered(repeat each arguments)
    }
}

extension BoundAction where Kind == ActionKind.Async {
    /// Calls the async action, for a chain that must answer.
    ///
    /// - Throws: The handler's error or `CancellationError`, unchanged; or
    ///   ``UnansweredActionError`` when no handler answered.
    /// - Complexity: As the call; O(*c*) more to build the error, for a chain of *c* pipes.
    @inlinable
    public nonisolated(nonsending) func answer(_ arguments: repeat each Argument) async throws
        -> Result
    {
        if let value = try await (copy self)(repeat each arguments) { return value }
        throw _unanswered(repeat each arguments)
    }
}
