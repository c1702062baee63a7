/// How often and how soon a failing provider call is tried again. After the last attempt
/// the object's subtree is skipped and the failure reported (``OperationTreeReport/failures``).
public struct OperationTreeRetryPolicy: Sendable {
    /// How long to wait before the next attempt.
    public enum Backoff: Sendable, Equatable {
        /// Try again at once.
        case immediate
        /// Wait the same time before every retry.
        case constant(Duration)
        /// Wait `initial`, then twice as long before each further retry, at most `maximum`.
        case exponential(initial: Duration, maximum: Duration)

        /// The wait before attempt `attempt` (2 for the first retry). No value traps: a
        /// negative duration counts as zero, a `maximum` below `initial` caps every wait, and
        /// attempts below 2 wait `initial`.
        ///
        /// - Complexity: O(log(maximum / initial)) at most.
        public func delay(beforeAttempt attempt: Int) -> Duration {
            switch self {
            case .immediate:
                return .zero
            case .constant(let delay):
                return Swift.max(delay, .zero)
            case .exponential(let initial, let maximum):
                let maximum = Swift.max(maximum, .zero)
                var delay = Swift.min(Swift.max(initial, .zero), maximum)
                guard delay > .zero else { return .zero }
                var step = 2
                while step < attempt && delay < maximum {
                    delay = delay > maximum / 2 ? maximum : delay * 2
                    step += 1
                }
                return delay
            }
        }
    }

    /// Attempts in total, the first included; values below 1 count as 1.
    public var maxAttempts: Int {
        didSet { maxAttempts = Swift.max(1, maxAttempts) }
    }
    /// The wait before each retry.
    public var backoff: Backoff
    /// Whether an error is worth another attempt; `false` reports the failure at once.
    public var shouldRetry: @Sendable (any Error) -> Bool

    /// A policy of `maxAttempts` attempts in total (at least 1), by default 3, back to back.
    ///
    /// - Complexity: O(1).
    public init(
        maxAttempts: Int = 3, backoff: Backoff = .immediate,
        shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
        self.shouldRetry = shouldRetry
    }

    /// One attempt, no retry.
    public static var never: OperationTreeRetryPolicy { OperationTreeRetryPolicy(maxAttempts: 1) }
}
