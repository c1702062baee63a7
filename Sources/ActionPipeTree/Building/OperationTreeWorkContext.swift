/// What a node's work is told about the call it is in: which attempt it is.
public struct OperationTreeWorkContext: Sendable, Equatable {
    /// Which attempt of the call this is: 1 for the first, 2 for the first retry, and so on.
    public let attempt: Int
    /// The most attempts the node's retry policy allows for this call.
    public let maxAttempts: Int

    /// A context for `attempt` of at most `maxAttempts`, to call a provider's work in a test.
    ///
    /// - Complexity: O(1).
    public init(attempt: Int, maxAttempts: Int) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
    }

    /// Whether the policy allows no further attempt (an error it does not retry is final).
    ///
    /// - Complexity: O(1).
    public var isLastAttempt: Bool { attempt >= maxAttempts }
}
