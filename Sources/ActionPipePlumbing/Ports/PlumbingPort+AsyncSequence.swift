extension PlumbingPort {
    /// Sends every element of `source` through the port, each processed (``process(_:)``)
    /// before the next is read, until `source` ends or the task is cancelled.
    ///
    /// - Returns: How many packets every stage passed, and how many stopped.
    /// - Throws: What `source` throws.
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
