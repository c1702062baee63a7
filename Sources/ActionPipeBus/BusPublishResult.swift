import ActionPipeKernel

/// What a synchronous ``EventBus/publish(_:)`` did: how many subscribers handled the event,
/// how many threw, and how many were handed to their executor to run later.
///
/// Counting costs nothing, so every publish returns it; for who did what, ask for feedback
/// (``EventBus/publish(_:feedback:)``, ``EventBus/publishAndWait(_:)``).
///
/// ```swift
/// let result = bus.publish(Ping())
/// result.handled    // synchronous handlers that returned
/// result.isEmpty    // true when nobody listens: not an error
/// ```
public struct BusPublishResult: Sendable, Hashable, CustomStringConvertible {
    /// Equal when the counts are equal and both were refused for the same event type, or
    /// neither was.
    ///
    /// ```swift
    /// BusPublishResult(handled: 1) == BusPublishResult(handled: 1)   // true
    /// ```
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.handled == rhs.handled && lhs.failed == rhs.failed && lhs.scheduled == rhs.scheduled
            && lhs.refusedEventType.map(ObjectIdentifier.init)
                == rhs.refusedEventType.map(ObjectIdentifier.init)
    }

    /// Hashes the counts and the refused event type.
    ///
    /// ```swift
    /// Set([bus.publish(Ping())])
    /// ```
    public func hash(into hasher: inout Hasher) {
        hasher.combine(handled)
        hasher.combine(failed)
        hasher.combine(scheduled)
        hasher.combine(refusedEventType.map(ObjectIdentifier.init))
    }

    /// Synchronous handlers that returned normally.
    ///
    /// ```swift
    /// bus.publish(Ping()).handled
    /// ```
    public var handled: Int

    /// Synchronous handlers that threw (the publish went on with the next subscriber).
    ///
    /// ```swift
    /// bus.publish(Ping()).failed
    /// ```
    public var failed: Int

    /// Handlers handed to their executor; they run after the publish returns.
    ///
    /// ```swift
    /// bus.publish(Ping()).scheduled
    /// ```
    public var scheduled: Int

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
    /// BusPublishResult(handled: 1, failed: 0, scheduled: 0)
    /// ```
    public init(handled: Int = 0, failed: Int = 0, scheduled: Int = 0) {
        self.handled = handled
        self.failed = failed
        self.scheduled = scheduled
        self.refusedEventType = nil
    }

    /// Subscribers the event reached: `handled + failed + scheduled`.
    ///
    /// ```swift
    /// bus.publish(Ping()).reached
    /// ```
    public var reached: Int { handled + failed + scheduled }

    /// Whether no subscriber received the event.
    ///
    /// ```swift
    /// EventBus(name: "empty").publish(Ping()).isEmpty   // true
    /// ```
    public var isEmpty: Bool { reached == 0 }

    /// `handled 2, failed 0, scheduled 1`.
    ///
    /// ```swift
    /// print(bus.publish(Ping()))
    /// ```
    public var description: String {
        "handled \(handled), failed \(failed), scheduled \(scheduled)"
    }
}
