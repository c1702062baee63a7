import ActionPipe
import ActionPipePlumbing

/// A plumber's stop observer that keeps every stop it is told, in order: `onStop` for
/// tests.
///
/// It is added beside the plumber's stop observer when made, replacing none: the app's
/// own `onStop` (set before or after it) is still told every stop, before the recorder.
/// It removes itself, and only itself, when it is released or on ``cancel()``.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// plumber.addStage("gate") { _ in .stop("closed") }
/// let stops = PlumbingStopRecorder(plumber)
/// plumber.send(1, from: 1)
/// #expect(stops.summaries == ["gate: refused: closed"])
/// ```
public final class PlumbingStopRecorder<Payload: Sendable>: Sendable {
    /// The observer's token.
    ///
    /// ```swift
    /// #expect(stops.token.isActive)
    /// ```
    public let token: RegistrationToken

    /// The stops, as a plain ``Recorder``.
    ///
    /// ```swift
    /// let latest = stops.recorder.last
    /// ```
    public let recorder: Recorder<PlumbingOutcome<Payload>>

    /// Adds a recording stop observer to `plumber`, beside its `onStop`.
    ///
    /// ```swift
    /// let stops = PlumbingStopRecorder(plumber)
    /// ```
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        let recorder = Recorder<PlumbingOutcome<Payload>>()
        self.recorder = recorder
        // The observer holds the stops, not this object, so releasing it removes it.
        token = plumber._addTap { outcome in
            if !outcome.wasDelivered { recorder.record(outcome) }
        }
    }

    deinit { token.cancel() }

    /// The stops received so far, oldest first.
    ///
    /// ```swift
    /// #expect(stops.stops.map(\.stage) == ["gate"])
    /// ```
    ///
    /// - Complexity: O(1).
    public var stops: [PlumbingOutcome<Payload>] { recorder.values }

    /// Each stop as `stage: reason` (`sink: reason` for a stop after every stage), oldest
    /// first: which check refused what, in one comparable line each.
    ///
    /// ```swift
    /// #expect(stops.summaries == ["gate: refused: closed"])
    /// ```
    ///
    /// - Complexity: O(n) for n stops.
    public var summaries: [String] {
        recorder.values.map { "\($0.stage ?? "sink"): \($0.reason?.description ?? "")" }
    }

    /// How many stops were received.
    ///
    /// ```swift
    /// #expect(stops.count == 1)
    /// ```
    ///
    /// - Complexity: O(1).
    public var count: Int { recorder.count }

    /// Returns the stops received so far and forgets them.
    ///
    /// ```swift
    /// #expect(stops.take().count == 1)
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [PlumbingOutcome<Payload>] { recorder.take() }

    /// Suspends until at least `count` stops are held, then returns them; returns early if
    /// the task is cancelled (see ``Recorder/waitForCount(_:)``).
    ///
    /// ```swift
    /// port.emit(1)   // from a port: stopped on another task
    /// await stops.waitForCount(1)
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [PlumbingOutcome<Payload>] {
        await recorder.waitForCount(count)
    }

    /// Removes the recorder from the plumber (the app's `onStop` stays); the stops already
    /// recorded stay.
    ///
    /// ```swift
    /// stops.cancel()   // true: it was attached
    /// ```
    ///
    /// - Returns: Whether it was still attached.
    /// - Complexity: O(1).
    @discardableResult
    public func cancel() -> Bool { token.cancel() }
}
