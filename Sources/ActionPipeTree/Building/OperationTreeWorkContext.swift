/// What a node's work is told about the call it is in: which attempt it is.
///
/// ```swift
/// let upload = OperationTreeNode("upload",
///     objects: { (files: [String]) in files },
///     work: { (file: String, context: OperationTreeWorkContext) in
///         if context.attempt > 1 { print("retrying \(file), attempt \(context.attempt)") }
///         return file.count
///     })
/// ```
public struct OperationTreeWorkContext: Sendable, Equatable {
    /// Which attempt of the call this is: 1 for the first, 2 for the first retry, and so on.
    public let attempt: Int
    /// The most attempts the node's retry policy allows for this call.
    public let maxAttempts: Int

    /// A context for `attempt` of at most `maxAttempts` (for calling a provider's work
    /// directly, in a test).
    ///
    /// ```swift
    /// #expect(OperationTreeWorkContext(attempt: 1, maxAttempts: 3).isLastAttempt == false)
    /// ```
    ///
    /// - Complexity: O(1).
    public init(attempt: Int, maxAttempts: Int) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
    }

    /// Whether a failure of this attempt is final: the policy allows no more. (An error
    /// the policy does not retry is final on any attempt.)
    ///
    /// ```swift
    /// #expect(OperationTreeWorkContext(attempt: 3, maxAttempts: 3).isLastAttempt)
    /// ```
    ///
    /// - Complexity: O(1).
    public var isLastAttempt: Bool { attempt >= maxAttempts }
}
