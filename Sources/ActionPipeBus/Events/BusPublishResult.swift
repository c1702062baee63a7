import ActionPipeConcurrency

/// What a synchronous ``EventBus/publish(_:)`` did: how many subscribers handled the event,
/// how many threw, and how many were handed to their executor to run later.
///
/// Counting costs nothing, so every publish returns it; for who did what, ask for feedback
/// (``EventBus/publish(_:feedback:)``, ``EventBus/publishAndWait(_:)``).
///
/// ```swift
/// let result = bus.publish(Ping())
/// result.handledCount   // synchronous handlers that returned
/// result.isEmpty        // true when nobody listens: not an error
/// ```
public struct BusPublishResult: Sendable, Hashable, CustomStringConvertible {
    /// Equal when the counts are equal and both were refused for the same event type, or
    /// neither was.
    ///
    /// ```swift
    /// BusPublishResult(handledCount: 1) == BusPublishResult(handledCount: 1)   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.handledCount == rhs.handledCount && lhs.failedCount == rhs.failedCount
            && lhs.scheduledCount == rhs.scheduledCount
            && lhs.refusedEventType.map(ObjectIdentifier.init)
                == rhs.refusedEventType.map(ObjectIdentifier.init)
    }

    /// Hashes the counts and the refused event type.
    ///
    /// ```swift
    /// Set([bus.publish(Ping())])
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(handledCount)
        hasher.combine(failedCount)
        hasher.combine(scheduledCount)
        hasher.combine(refusedEventType.map(ObjectIdentifier.init))
    }

    /// Synchronous handlers that returned normally.
    ///
    /// ```swift
    /// bus.publish(Ping()).handledCount
    /// ```
    public var handledCount: Int

    /// Synchronous handlers that threw (the publish went on with the next subscriber).
    ///
    /// ```swift
    /// bus.publish(Ping()).failedCount
    /// ```
    public var failedCount: Int

    /// Handlers handed to their executor; they run after the publish returns.
    ///
    /// ```swift
    /// bus.publish(Ping()).scheduledCount
    /// ```
    public var scheduledCount: Int

    /// Why the publish reached nobody, when it was refused for nesting deeper than
    /// ``NestingLimitError/depthLimit``; `nil` otherwise.
    ///
    /// ```swift
    /// if let error = bus.publish(Ping()).nestingError { print(error) }
    /// ```
    public var nestingError: NestingLimitError? {
        refusedEventType.map {
            NestingLimitError(
                refused: .publish(eventType: "\($0)"), depth: NestingLimitError.depthLimit + 1)
        }
    }

    /// The event type of a publish refused for nesting too deep. A type, not the error:
    /// it keeps the result trivial to copy, which a publish's return path depends on.
    var refusedEventType: Any.Type?

    /// A result with these counts.
    ///
    /// ```swift
    /// BusPublishResult(handledCount: 1, failedCount: 0, scheduledCount: 0)
    /// ```
    public init(handledCount: Int = 0, failedCount: Int = 0, scheduledCount: Int = 0) {
        self.handledCount = handledCount
        self.failedCount = failedCount
        self.scheduledCount = scheduledCount
        self.refusedEventType = nil
    }

    /// Subscribers the event reached: `handledCount + failedCount + scheduledCount`.
    ///
    /// ```swift
    /// bus.publish(Ping()).reachedCount
    /// ```
    public var reachedCount: Int { handledCount + failedCount + scheduledCount }

    /// Whether no subscriber received the event.
    ///
    /// ```swift
    /// EventBus(name: "empty").publish(Ping()).isEmpty   // true
    /// ```
    public var isEmpty: Bool { reachedCount == 0 }

    /// `handled 2, failed 0, scheduled 1`.
    ///
    /// ```swift
    /// print(bus.publish(Ping()))
    /// ```
    public var description: String {
        "handled \(handledCount), failed \(failedCount), scheduled \(scheduledCount)"
    }
}
