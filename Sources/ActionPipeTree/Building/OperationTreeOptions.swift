/// How a run of an operation tree behaves: limits, retries, fail-fast, timeout and clock.
public struct OperationTreeOptions: Sendable {
    /// Which ready item a free worker takes first.
    public enum Order: Sendable, Equatable {
        /// An item's children go before everything else that is ready (siblings in the
        /// order added): subtrees complete one after another, and fewer items wait.
        case depthFirst
        /// First in, first out: level by level, siblings in the order they were added.
        case breadthFirst
    }

    /// The most provider calls running at once in the whole run; at least 1, default 8. A
    /// limit above the work (even `Int.max`) starts only as many workers as items are ready.
    public var concurrencyLimit: Int {
        didSet { concurrencyLimit = max(1, concurrencyLimit) }
    }
    /// Retries of a failing provider call; a node's own policy, if it has one, wins.
    public var retry: OperationTreeRetryPolicy
    /// When `true`, the first failure that survives its retries stops the run: nothing new
    /// starts, running calls are cancelled, and the report's outcome is
    /// ``OperationTreeReport/Outcome/stoppedByFailure``.
    public var failFast: Bool
    /// The longest one attempt may take; `nil` (the default) waits for ever. A call over it
    /// fails with ``OperationTreeError/timedOut(node:after:)`` and is cancelled (one ignoring
    /// cancellation runs on outside the limits, its result dropped). Zero or less times every
    /// attempt out at once; 2^32 seconds or more counts as none.
    public var itemTimeout: Duration?
    /// Which ready item starts first; default ``Order/depthFirst``.
    public var order: Order
    /// The clock that backoffs and ``itemTimeout`` wait on (a test's `TestClock`).
    public var clock: any Clock<Duration>

    /// Options with the given values; `concurrencyLimit` below 1 counts as 1.
    ///
    /// - Complexity: O(1).
    public init(
        concurrencyLimit: Int = 8, retry: OperationTreeRetryPolicy = .init(),
        failFast: Bool = false, itemTimeout: Duration? = nil, order: Order = .depthFirst,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.concurrencyLimit = max(1, concurrencyLimit)
        self.retry = retry
        self.failFast = failFast
        self.itemTimeout = itemTimeout
        self.order = order
        self.clock = clock
    }
}
