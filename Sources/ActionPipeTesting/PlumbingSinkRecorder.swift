import ActionPipe
import ActionPipePlumbing

/// A plumber's sink that keeps every packet it receives, in order: a sink for tests.
///
/// It is added beside the plumber's sink when made, replacing none: the app's own sink
/// (set before or after it) still receives every packet, before the recorder. It removes
/// itself, and only itself, when it is released or on ``cancel()``.
///
/// ```swift
/// let plumber = PipelinePlumber<Int>()
/// let sunk = PlumbingSinkRecorder(plumber)
/// plumber.send(7, from: 1)
/// #expect(sunk.payloads == [7])
/// ```
public final class PlumbingSinkRecorder<Payload: Sendable>: Sendable {
    /// The sink's token.
    ///
    /// ```swift
    /// #expect(sunk.token.isActive)
    /// ```
    public let token: RegistrationToken

    /// The packets, as a plain ``Recorder``.
    ///
    /// ```swift
    /// let latest = sunk.recorder.last
    /// ```
    public let recorder: Recorder<PlumbingPacket<Payload>>

    /// Adds a recording sink to `plumber`, beside its sink.
    ///
    /// ```swift
    /// let sunk = PlumbingSinkRecorder(plumber)
    /// ```
    ///
    /// - Complexity: O(t) for the t recorders on the plumber.
    public init(_ plumber: PipelinePlumber<Payload>) {
        let recorder = Recorder<PlumbingPacket<Payload>>()
        self.recorder = recorder
        // The sink holds the packets, not this object, so releasing it removes the sink.
        token = plumber._addTap { outcome in
            if let packet = outcome.delivered { recorder.record(packet) }
        }
    }

    deinit { token.cancel() }

    /// The packets received so far, oldest first.
    ///
    /// ```swift
    /// #expect(sunk.packets.map(\.port) == [1, 2])
    /// ```
    ///
    /// - Complexity: O(1).
    public var packets: [PlumbingPacket<Payload>] { recorder.values }

    /// The payloads of the packets received so far, oldest first.
    ///
    /// ```swift
    /// #expect(sunk.payloads == [7, 8])
    /// ```
    ///
    /// - Complexity: O(n) for n packets.
    public var payloads: [Payload] { recorder.values.map(\.payload) }

    /// How many packets were received.
    ///
    /// ```swift
    /// #expect(sunk.count == 2)
    /// ```
    ///
    /// - Complexity: O(1).
    public var count: Int { recorder.count }

    /// Returns the packets received so far and forgets them.
    ///
    /// ```swift
    /// #expect(sunk.take().map(\.payload) == [7])
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [PlumbingPacket<Payload>] { recorder.take() }

    /// Suspends until at least `count` packets are held, then returns them; returns early
    /// if the task is cancelled (see ``Recorder/waitForCount(_:)``).
    ///
    /// ```swift
    /// port.emit(7)   // from a port: delivered on another task
    /// await sunk.waitForCount(1)
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [PlumbingPacket<Payload>] {
        await recorder.waitForCount(count)
    }

    /// Removes the recorder from the plumber (the app's sink stays); the packets already
    /// recorded stay.
    ///
    /// ```swift
    /// sunk.cancel()   // true: it was attached
    /// ```
    ///
    /// - Returns: Whether it was still attached.
    /// - Complexity: O(1).
    @discardableResult
    public func cancel() -> Bool { token.cancel() }
}
