import ActionPipe

/// A registration (subscription, observation, plumber tap) whose values go to a
/// ``Recorder``: what ``BusRecorder``, ``ObservationRecorder``, ``PlumbingSinkRecorder``
/// and ``PlumbingStopRecorder`` share.
public protocol _RecordingRegistration: AnyObject, Sendable {
    /// What is recorded.
    associatedtype Recorded: Sendable

    /// The registration's token.
    var token: RegistrationToken { get }

    /// The values, as a plain ``Recorder``.
    var recorder: Recorder<Recorded> { get }
}

extension _RecordingRegistration {
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

extension Recorder {
    /// A recorder and the registration `register` makes to feed it. The registration holds
    /// the recorder, not the object that keeps both, so releasing that object cancels it.
    static func _fed(
        by register: (Recorder) -> RegistrationToken
    ) -> (Recorder, RegistrationToken) {
        let recorder = Recorder()
        return (recorder, register(recorder))
    }
}
