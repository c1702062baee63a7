import ActionPipe

/// An observation that keeps every value it is told, in order: an observer for tests.
///
/// It observes an ``ObservedProperty`` or an ``ObservedPath`` when made, and cancels the
/// observation when it is released or on ``cancel()``. Values are recorded synchronously,
/// on the assigning thread, in the order the assignments were delivered.
///
/// ```swift
/// let counter = ObservedProperty(0)
/// let seen = ObservationRecorder(counter, .initial)
/// counter.value = 1
/// #expect(seen.values == [0, 1])
/// ```
public final class ObservationRecorder<Value: Sendable>: Sendable {
    /// The observation's token.
    ///
    /// ```swift
    /// #expect(seen.token.isActive)
    /// ```
    public let token: RegistrationToken

    /// The values, as a plain ``Recorder``.
    ///
    /// ```swift
    /// let latest = seen.recorder.last
    /// ```
    public let recorder: Recorder<Value>

    /// Observes `property` with `options`.
    ///
    /// ```swift
    /// let seen = ObservationRecorder(store.$title, [.initial, .skipEqual])
    /// ```
    ///
    /// - Complexity: Amortised O(1), as `ObservedProperty.observe`.
    public init(_ property: ObservedProperty<Value>, _ options: ObservationOptions = []) {
        let recorder = Recorder<Value>()
        self.recorder = recorder
        // The handler holds the values, not this object, so releasing it cancels.
        token = property.observe(options) { recorder.record($0) }
    }

    /// Observes `path` with `options`: the value at its end, whichever objects the path
    /// goes through at the time.
    ///
    /// ```swift
    /// let urls = ObservationRecorder(screen.$image.then(\.$url))
    /// ```
    ///
    /// - Complexity: As `ObservedPath.observe`: the observation is registered on each
    ///   object the path goes through.
    public init(_ path: ObservedPath<Value>, _ options: ObservationOptions = []) {
        let recorder = Recorder<Value>()
        self.recorder = recorder
        token = path.observe(options) { recorder.record($0) }
    }

    deinit { token.cancel() }

    /// The values received so far, oldest first.
    ///
    /// ```swift
    /// #expect(seen.values == [0, 1])
    /// ```
    ///
    /// - Complexity: O(1).
    public var values: [Value] { recorder.values }

    /// How many values were received.
    ///
    /// ```swift
    /// #expect(seen.count == 2)
    /// ```
    ///
    /// - Complexity: O(1).
    public var count: Int { recorder.count }

    /// Returns the values received so far and forgets them.
    ///
    /// ```swift
    /// #expect(seen.take() == [0, 1])
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [Value] { recorder.take() }

    /// Suspends until at least `count` values are held, then returns them; returns early
    /// if the task is cancelled (see ``Recorder/waitForCount(_:)``).
    ///
    /// ```swift
    /// Task.detached { counter.value = 2 }
    /// await seen.waitForCount(3)
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Value] {
        await recorder.waitForCount(count)
    }

    /// Cancels the observation; the values already recorded stay.
    ///
    /// ```swift
    /// seen.cancel()   // true: it was observing
    /// ```
    ///
    /// - Returns: Whether the observation was still there.
    /// - Complexity: Amortised O(1).
    @discardableResult
    public func cancel() -> Bool { token.cancel() }
}
