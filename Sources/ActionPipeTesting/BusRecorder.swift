import ActionPipe

/// A subscription that keeps every event it receives, in order: a bus subscriber for tests.
/// It subscribes when made and cancels when released or on ``cancel()``.
///
/// ```swift
/// let logins = BusRecorder(bus, BusTopic(Login.self, .login))
/// bus.publish(Login(subtype: .login, user: "ann"))
/// #expect(logins.events.map(\.user) == ["ann"])
/// ```
public final class BusRecorder<Event: BusEvent>: _RecordingRegistration {
    /// The subscription's token.
    public let token: RegistrationToken

    /// The events, as a plain ``Recorder``.
    public let recorder: Recorder<Event>

    /// Subscribes to `topic` of `bus`, answering each event's feedback with `answer`.
    ///
    /// - Parameters:
    ///   - name: The subscriber's name in feedback.
    ///   - executor: Where the recording handler runs; by default during the publish.
    /// - Complexity: Amortised O(1), as `EventBus.subscribe`.
    public init(
        _ bus: EventBus, _ topic: BusTopic<Event>, name: String = "recorder",
        on executor: BusExecutor? = nil,
        answer: @escaping @Sendable (Event) -> Event.Feedback
    ) {
        let recorder = Recorder<Event>()
        self.recorder = recorder
        // The handler captures the values, not this object, so releasing it cancels.
        token = bus.subscribe(topic, name: name, on: executor) { event in
            recorder.record(event)
            return answer(event)
        }
    }

    /// Subscribes to `topic` of `bus`, for an event type that has no feedback.
    ///
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
    /// - Complexity: O(1).
    public var events: [Event] { recorder.values }
}
