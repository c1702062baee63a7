import ActionPipeConcurrency

/// How many subscribers handled a published event, threw, or were handed to their executor.
public struct BusPublishResult: Sendable, Hashable, CustomStringConvertible {
    /// Equal counts, and refused for the same event type or neither.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.handledCount == rhs.handledCount && lhs.failedCount == rhs.failedCount
            && lhs.scheduledCount == rhs.scheduledCount
            && lhs.refusedEventType.map(ObjectIdentifier.init)
                == rhs.refusedEventType.map(ObjectIdentifier.init)
    }

    /// Hashes the counts and the refused event type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(handledCount)
        hasher.combine(failedCount)
        hasher.combine(scheduledCount)
        hasher.combine(refusedEventType.map(ObjectIdentifier.init))
    }

    /// Synchronous handlers that returned normally.
    public var handledCount: Int

    /// Synchronous handlers that threw.
    public var failedCount: Int

    /// Handlers handed to their executor, to run later.
    public var scheduledCount: Int

    /// Why the publish reached nobody: it nested deeper than ``NestingLimitError/depthLimit``.
    public var nestingError: NestingLimitError? {
        refusedEventType.map {
            NestingLimitError(
                refused: .publish(eventType: "\($0)"), depth: NestingLimitError.depthLimit + 1)
        }
    }

    /// A type, not the error: the result stays trivial to copy.
    var refusedEventType: Any.Type?

    /// A result with these counts.
    public init(handledCount: Int = 0, failedCount: Int = 0, scheduledCount: Int = 0) {
        self.handledCount = handledCount
        self.failedCount = failedCount
        self.scheduledCount = scheduledCount
    }

    /// `handledCount + failedCount + scheduledCount`.
    public var reachedCount: Int { handledCount + failedCount + scheduledCount }

    /// Whether no subscriber received the event (not an error).
    public var isEmpty: Bool { reachedCount == 0 }

    /// `handled 2, failed 0, scheduled 1`.
    public var description: String {
        "handled \(handledCount), failed \(failedCount), scheduled \(scheduledCount)"
    }
}
