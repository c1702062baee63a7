/// How a run of an operation tree behaves: concurrency limit, retries, fail-fast, timeout,
/// and the clock they wait on.
///
/// ```swift
/// var options = OperationTreeOptions(concurrencyLimit: 4)
/// options.failFast = true
/// options.itemTimeout = .seconds(30)
/// let report = await cookbook.run("a-cookbook", options: options)
/// ```
public struct OperationTreeOptions: Sendable {
    /// Which ready item a free worker takes first.
    ///
    /// ```swift
    /// var options = OperationTreeOptions()
    /// options.order = .breadthFirst  // level by level instead
    /// ```
    public enum Order: Sendable, Equatable {
        /// An item's children go before everything else that is ready (siblings still in
        /// the order they were added). The default: subtrees complete sooner, one after
        /// another (a recipe is ready before the next recipe's images are fetched), fewer
        /// items wait in the queue, and the items just produced are still in the cache.
        case depthFirst
        /// First in, first out: level by level, siblings in the order they were added.
        case breadthFirst
    }

    /// The most provider calls running at once in the whole run; at least 1.
    ///
    /// The run starts worker tasks as items become ready, up to this many: a limit larger
    /// than the work (even `Int.max`) starts only as many as there are items to run.
    /// Default 8: enough to overlap network requests, few enough not to flood a server.
    public var concurrencyLimit: Int {
        didSet { concurrencyLimit = max(1, concurrencyLimit) }
    }
    /// Retries of a failing provider call; a node's own policy, if it has one, wins.
    public var retry: OperationTreeRetryPolicy
    /// When `true`, the first failure that survives its retries stops the run: nothing new
    /// starts, running calls are cancelled, and the report's outcome is
    /// ``OperationTreeReport/Outcome/stoppedByFailure``.
    public var failFast: Bool
    /// The longest one provider call (one attempt) may take; `nil` (the default) waits for
    /// ever. A call that exceeds it fails with ``OperationTreeError/timedOut(node:after:)``
    /// and is cancelled; if it ignores cancellation it keeps running detached, and its
    /// result is dropped. Zero or less times every attempt out at once; 2^32 seconds or
    /// more (over a century) counts as no timeout.
    public var itemTimeout: Duration?
    /// Which ready item starts first; default ``Order/depthFirst``.
    public var order: Order
    /// The clock that retry backoffs and ``itemTimeout`` wait on; default a
    /// `ContinuousClock`. Tests pass a manual clock (`TestClock` of the `ActionPipeTesting`
    /// product) to run retries and timeouts in virtual time:
    ///
    /// ```swift
    /// let clock = TestClock()
    /// var options = OperationTreeOptions(clock: clock)
    /// options.retry = OperationTreeRetryPolicy(maxAttempts: 3, backoff: .constant(.seconds(60)))
    /// // ... start the run, then `await clock.advance(by: .seconds(60))` per retry
    /// ```
    public var clock: any Clock<Duration>

    /// Options with the given values; `concurrencyLimit` below 1 counts as 1.
    ///
    /// ```swift
    /// let options = OperationTreeOptions(concurrencyLimit: 0)
    /// #expect(options.concurrencyLimit == 1)
    /// #expect(options.retry.maxAttempts == 3)
    /// ```
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
