import ActionPipe

/// A subscription that keeps every event it receives, in order, until released or
/// ``cancel()``.
public final class BusRecorder<Event: BusEvent>: _RecordingRegistration<Event>, @unchecked Sendable
{
    /// Subscribes to `topic` of `bus`, answering each event's feedback with `answer`.
    ///
    /// - Complexity: Amortised O(1), as `EventBus.subscribe`.
    public init(
        _ bus: EventBus, _ topic: BusTopic<Event>, name: String = "recorder",
        on executor: BusExecutor? = nil,
        answer: @escaping @Sendable (Event) -> Event.Feedback
    ) {
        super.init { recorder in
            bus.subscribe(topic, name: name, on: executor) { event in
                recorder.record(event)
                return answer(event)
            }
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

    /// The events received so far, oldest first.
    public var events: [Event] { recorder.values }
}
