extension PlumbingPort {
    /// Sends every element of `source` through the port, in order, one at a time: each is
    /// processed (``process(_:)``) before the next is read, so a slow stage slows the
    /// reading, and nothing piles up in between.
    ///
    /// Returns when `source` ends or the task is cancelled (the element being processed
    /// then stops with ``PlumbingStopReason/cancelled``, and no further one is read);
    /// rethrows what `source` throws.
    ///
    /// ```swift
    /// let lines = AsyncStream<String> { continuation in
    ///     for line in ["GET /", "POST /login"] { continuation.yield(line) }
    ///     continuation.finish()
    /// }
    /// let counts = try await port.consume(lines)
    /// #expect(counts.deliveredCount + counts.stoppedCount == 2)
    /// ```
    ///
    /// - Returns: How many packets every stage passed (and reached the sink, if there is
    ///   one), and how many stopped (refused, threw, cancelled, or the port not connected).
    /// - Complexity: O(n) packets, each costing what `process` costs.
    @discardableResult
    public nonisolated(nonsending) func consume<Source: AsyncSequence>(
        _ source: Source
    ) async throws(Source.Failure) -> (deliveredCount: Int, stoppedCount: Int)
    where Source.Element == Payload {
        var counts = (deliveredCount: 0, stoppedCount: 0)
        var iterator = source.makeAsyncIterator()
        while !Task.isCancelled, let payload = try await iterator.next(isolation: #isolation) {
            if await process(payload).wasDelivered {
                counts.deliveredCount += 1
            } else {
                counts.stoppedCount += 1
            }
        }
        return counts
    }
}
