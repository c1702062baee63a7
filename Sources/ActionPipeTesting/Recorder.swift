import ActionPipeConcurrency

/// A thread-safe, ordered record of values that a test can wait on (``waitForCount(_:)``),
/// with no sleeping or polling: the box behind every recorder of this module.
///
/// `@unchecked Sendable`: every stored value is inside a `LockedValue`.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private struct State: _CountWaiting {
        var values: [Value] = []
        var waits = _CountWaits<[Value]>()
        var waitedCount: Int { values.count }
        var waitResult: [Value] { values }
    }

    private let state = LockedValue(State())

    /// An empty recorder.
    public init() {}

    /// Appends `value`, from any thread, and resumes the waits whose count it reaches.
    ///
    /// - Complexity: O(w) for w waiting tasks; amortised O(1) when none waits.
    public func record(_ value: Value) {
        let (ready, values) = state.withLock { state in
            state.values.append(value)
            let ready = state.waits.take(reaching: state.values.count)
            // Copied only for a wait: a copy held elsewhere makes the next append copy.
            return (ready, ready.isEmpty ? [] : state.values)
        }
        for continuation in ready { continuation.resume(returning: values) }
    }

    /// Everything recorded so far, oldest first.
    public var values: [Value] { state.withLock { $0.values } }

    /// How many values are recorded.
    public var count: Int { state.withLock { $0.values.count } }

    /// The most recent value, if any.
    public var last: Value? { state.withLock { $0.values.last } }

    /// Returns the values recorded so far and forgets them; ``waitForCount(_:)`` then counts
    /// from zero again.
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [Value] {
        state.withLock { state in
            defer { state.values = [] }
            return state.values
        }
    }

    /// Suspends until at least `count` values are recorded (or it is cancelled), then returns
    /// them all.
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Value] {
        await state.wait(for: count)
    }

    /// How many tasks are suspended in ``waitForCount(_:)``.
    public var waiterCount: Int { state.withLock { $0.waits.count } }
}
