import ActionPipeConcurrency

/// A thread-safe, ordered record of values that a test can wait on: the box behind every
/// recorder of this module. ``waitForCount(_:)`` is resumed by the ``record(_:)`` that
/// reaches the count, with no sleeping or polling.
///
/// ```swift
/// let seen = Recorder<Int>()
/// pipe.on(\.ping) { process in
///     seen.record(process.arguments)
///     return nil
/// }
/// Task.detached { pipe.ping(1) }
/// let values = await seen.waitForCount(1)   // [1]
/// ```
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
    ///
    /// - Complexity: O(1).
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
    ///
    /// - Complexity: O(1) (the array is copied on write).
    public var values: [Value] { state.withLock { $0.values } }

    /// How many values are recorded.
    ///
    /// - Complexity: O(1).
    public var count: Int { state.withLock { $0.values.count } }

    /// The most recent value, if any.
    ///
    /// - Complexity: O(1).
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

    /// Suspends until at least `count` values are recorded, then returns them all (at once
    /// if they already are). No timeout: bound it with `.timeLimit`; a cancelled wait
    /// returns early with the fewer values, so a test fails instead of hanging.
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Value] {
        await state.wait(for: count)
    }

    /// How many tasks are suspended in ``waitForCount(_:)``.
    ///
    /// - Complexity: O(1).
    public var waiterCount: Int { state.withLock { $0.waits.count } }
}
