import ActionPipe

/// A subscription that keeps every event it receives, in order: a bus subscriber for tests.
///
/// It subscribes to one topic of a bus when made, and cancels that subscription when it is
/// released or on ``cancel()``. Events are recorded in the order their handler calls ran
/// (publish order for synchronous delivery or a serial executor); ``waitForCount(_:)``
/// waits for events delivered on another thread without sleeping.
///
/// ```swift
/// let logins = BusRecorder(bus, BusTopic(Login.self, .login))
/// bus.publish(Login(subtype: .login, user: "ann"))
/// #expect(logins.events.map(\.user) == ["ann"])
/// ```
///
/// For an event type whose subscribers answer with feedback, give the answer:
/// `BusRecorder(bus, BusTopic(Query.self), answer: { _ in "ok" })`.
public final class BusRecorder<Event: BusEvent>: Sendable {
    /// The subscription's token.
    ///
    /// ```swift
    /// #expect(recorder.token.isActive)
    /// ```
    public let token: RegistrationToken

    /// The events, as a plain ``Recorder``.
    ///
    /// ```swift
    /// let latest = recorder.recorder.last
    /// ```
    public let recorder: Recorder<Event>

    /// Subscribes to `topic` of `bus`, answering each event with `answer`.
    ///
    /// ```swift
    /// let queries = BusRecorder(bus, BusTopic(Query.self), answer: { $0.question })
    /// ```
    ///
    /// - Parameters:
    ///   - bus: The bus to subscribe to.
    ///   - topic: The event type and subtype (or any subtype) to record.
    ///   - name: The subscriber's name in feedback; `recorder` by default.
    ///   - executor: Where the recording handler runs; by default during the publish.
    ///   - answer: The feedback to give for each event.
    /// - Complexity: Amortised O(1), as `EventBus.subscribe`.
    public init(
        _ bus: EventBus, _ topic: BusTopic<Event>, name: String = "recorder",
        on executor: BusExecutor? = nil,
        answer: @escaping @Sendable (Event) -> Event.Feedback
    ) {
        let recorder = Recorder<Event>()
        self.recorder = recorder
        // The handler holds the values, not this object: releasing the recorder runs its
        // deinit, which cancels the subscription.
        token = bus.subscribe(topic, name: name, on: executor) { event in
            recorder.record(event)
            return answer(event)
        }
    }

    /// Subscribes to `topic` of `bus`, for an event type that has no feedback.
    ///
    /// ```swift
    /// let pings = BusRecorder(bus, BusTopic(Ping.self))
    /// let delayed = BusRecorder(bus, BusTopic(Ping.self), on: manual.executor)
    /// ```
    ///
    /// - Parameters:
    ///   - bus: The bus to subscribe to.
    ///   - topic: The event type and subtype (or any subtype) to record.
    ///   - name: The subscriber's name in feedback; `recorder` by default.
    ///   - executor: Where the recording handler runs; by default during the publish.
    /// - Complexity: Amortised O(1), as `EventBus.subscribe`.
    public convenience init(
        _ bus: EventBus, _ topic: BusTopic<Event>, name: String = "recorder",
        on executor: BusExecutor? = nil
    ) where Event.Feedback == Void {
        self.init(bus, topic, name: name, on: executor, answer: { _ in })
    }

    deinit { token.cancel() }

    /// The events received so far, oldest first.
    ///
    /// ```swift
    /// #expect(logins.events.map(\.user) == ["ann", "bob"])
    /// ```
    ///
    /// - Complexity: O(1).
    public var events: [Event] { recorder.values }

    /// How many events were received.
    ///
    /// ```swift
    /// #expect(pings.count == 2)
    /// ```
    ///
    /// - Complexity: O(1).
    public var count: Int { recorder.count }

    /// Returns the events received so far and forgets them.
    ///
    /// ```swift
    /// #expect(logins.take().map(\.user) == ["ann"])
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [Event] { recorder.take() }

    /// Suspends until at least `count` events are held, then returns them; returns early
    /// if the task is cancelled (see ``Recorder/waitForCount(_:)``).
    ///
    /// ```swift
    /// Task.detached { bus.publish(Ping()) }
    /// await pings.waitForCount(1)
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Event] {
        await recorder.waitForCount(count)
    }

    /// Cancels the subscription; the events already recorded stay.
    ///
    /// ```swift
    /// pings.cancel()   // true: it was subscribed
    /// ```
    ///
    /// - Returns: Whether the subscription was still there.
    /// - Complexity: Amortised O(1).
    @discardableResult
    public func cancel() -> Bool { token.cancel() }
}
