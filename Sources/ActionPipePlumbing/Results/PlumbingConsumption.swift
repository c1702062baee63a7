/// What ``PlumbingPort/consume(_:)`` did with the elements it read.
///
/// ```swift
/// let counts = try await port.consume(lines)
/// print(counts.deliveredCount, counts.stoppedCount)
/// ```
public struct PlumbingConsumption: Sendable, Equatable {
    /// Packets that passed every stage (and reached the sink, if there is one).
    public var deliveredCount = 0
    /// Packets that a stage stopped (refused, threw), that were cancelled, or that found
    /// the port not connected.
    public var stoppedCount = 0

    /// Counts of `deliveredCount` and `stoppedCount` packets.
    public init(deliveredCount: Int = 0, stoppedCount: Int = 0) {
        self.deliveredCount = deliveredCount
        self.stoppedCount = stoppedCount
    }
}
