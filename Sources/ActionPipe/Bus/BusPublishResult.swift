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
    public var nestingError: NestingLimitError?

    /// A result with these counts.
    ///
    /// ```swift
    /// BusPublishResult(handled: 1, failed: 0, scheduled: 0)
    /// ```
    public init(handled: Int = 0, failed: Int = 0, scheduled: Int = 0) {
        self.handled = handled
        self.failed = failed
        self.scheduled = scheduled
        self.nestingError = nil
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
