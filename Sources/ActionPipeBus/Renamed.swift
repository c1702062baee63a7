// Names before 0.2, kept one release for migration (CHANGELOG.md).

/// Renamed: every part now returns RegistrationToken.
@available(*, deprecated, renamed: "RegistrationToken")
public typealias BusSubscription = RegistrationToken

extension EventBus {
    /// Renamed: `subscribe(_:owner:retention:name:on:_:)`.
    @available(*, deprecated, renamed: "subscribe(_:owner:retention:name:on:_:)")
    @discardableResult
    public func subscribe<Event: BusEvent, Subscriber: AnyObject & Sendable>(
        _ topic: BusTopic<Event>, by subscriber: Subscriber, retention: Retention = .weak,
        name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, Event) throws -> Event.Feedback
    ) -> RegistrationToken {
        subscribe(
            topic, owner: subscriber, retention: retention, name: name, on: executor, handler)
    }

    /// Renamed: `subscribe(allOf:owner:retention:name:on:_:)`.
    @available(*, deprecated, renamed: "subscribe(allOf:owner:retention:name:on:_:)")
    @discardableResult
    public func subscribe<Subscriber: AnyObject & Sendable>(
        allOf keys: [BusEventKey], by subscriber: Subscriber, retention: Retention = .weak,
        name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, BusUnion) throws -> Void
    ) -> RegistrationToken {
        subscribe(
            allOf: keys, owner: subscriber, retention: retention, name: name, on: executor,
            handler)
    }

    /// Renamed: `subscribe(anyOf:owner:retention:name:on:_:)`.
    @available(*, deprecated, renamed: "subscribe(anyOf:owner:retention:name:on:_:)")
    @discardableResult
    public func subscribe<Subscriber: AnyObject & Sendable>(
        anyOf keys: [BusEventKey], by subscriber: Subscriber, retention: Retention = .weak,
        name: String? = nil, on executor: BusExecutor? = nil,
        _ handler: @escaping @Sendable (Subscriber, BusUnion) throws -> Void
    ) -> RegistrationToken {
        subscribe(
            anyOf: keys, owner: subscriber, retention: retention, name: name, on: executor,
            handler)
    }
}

extension BusPublishResult {
    /// Renamed: ``handledCount``.
    @available(*, deprecated, renamed: "handledCount")
    public var handled: Int { handledCount }

    /// Renamed: ``failedCount``.
    @available(*, deprecated, renamed: "failedCount")
    public var failed: Int { failedCount }

    /// Renamed: ``scheduledCount``.
    @available(*, deprecated, renamed: "scheduledCount")
    public var scheduled: Int { scheduledCount }

    /// Renamed: ``reachedCount``.
    @available(*, deprecated, renamed: "reachedCount")
    public var reached: Int { reachedCount }

    /// Renamed: `init(handledCount:failedCount:scheduledCount:)`.
    @available(*, deprecated, renamed: "init(handledCount:failedCount:scheduledCount:)")
    public init(handled: Int, failed: Int = 0, scheduled: Int = 0) {
        self.init(handledCount: handled, failedCount: failed, scheduledCount: scheduled)
    }
}

extension BusSummary {
    /// Renamed: ``successes``.
    @available(*, deprecated, renamed: "successes")
    public var handled: [BusFeedback<Value>] { successes }

    /// Renamed: ``failures``.
    @available(*, deprecated, renamed: "failures")
    public var failed: [BusFeedback<Value>] { failures }

    /// Renamed: ``skippedCount``.
    @available(*, deprecated, renamed: "skippedCount")
    public var skipped: Int { skippedCount }
}

extension BusFeedback {
    /// Renamed: ``isSuccess``.
    @available(*, deprecated, renamed: "isSuccess")
    public var handled: Bool { isSuccess }
}
