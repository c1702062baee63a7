import ActionPipe

/// A registration (subscription, observation, plumber tap) whose values go to a
/// ``Recorder``: what ``BusRecorder``, ``ObservationRecorder``, ``PlumbingSinkRecorder``
/// and ``PlumbingStopRecorder`` share. Releasing it cancels the registration.
///
/// `@unchecked Sendable`: not final; every stored property is immutable and `Sendable`.
public class _RecordingRegistration<Recorded: Sendable>: @unchecked Sendable {
    /// The registration's token.
    public let token: RegistrationToken

    /// The values, as a plain ``Recorder``.
    public let recorder: Recorder<Recorded>

    /// Feeds a new recorder through the registration `register` makes, which holds the
    /// recorder, not this object: releasing this object cancels it.
    init(_ register: (Recorder<Recorded>) -> RegistrationToken) {
        let recorder = Recorder<Recorded>()
        self.recorder = recorder
        token = register(recorder)
    }

    deinit { token.cancel() }

    /// How many values were received.
    public var count: Int { recorder.count }

    /// Returns the values received so far and forgets them.
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [Recorded] { recorder.take() }

    /// Suspends until at least `count` values are held, then returns them.
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Recorded] {
        await recorder.waitForCount(count)
    }

    /// Ends the recorder's registration (the values stay); returns whether it was still there.
    ///
    /// - Complexity: Amortised O(1).
    @discardableResult
    public func cancel() -> Bool { token.cancel() }
}
