import ActionPipeConcurrency

/// A thread-safe, ordered record of values, which a test can wait on: the box behind every
/// recorder of this module, and a handy one for any handler a test installs itself.
///
/// ``record(_:)`` may be called from any thread; ``values`` are in the order the calls
/// took the recorder's lock. ``waitForCount(_:)`` suspends until enough values are there,
/// without sleeping or polling: it is resumed by the ``record(_:)`` that reaches the count.
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
    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: UnsafeContinuation<[Value], Never>
    }

    private struct State {
        var values: [Value] = []
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        /// Ids of waits whose task was cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = LockedValue(State())

    /// An empty recorder.
    ///
    /// ```swift
    /// let recorder = Recorder<String>()
    /// ```
    ///
    /// - Complexity: O(1).
    public init() {}

    /// Appends `value`, and resumes every ``waitForCount(_:)`` whose count it reaches.
    ///
    /// ```swift
    /// recorder.record("saved")
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks; amortised O(1) when none waits.
    public func record(_ value: Value) {
        let ready = state.withLock { state -> [(UnsafeContinuation<[Value], Never>, [Value])] in
            state.values.append(value)
            guard !state.waiters.isEmpty else { return [] }
            return Self.takeSatisfiedWaiters(&state)
        }
        for (continuation, values) in ready { continuation.resume(returning: values) }
    }

    /// Everything recorded so far, oldest first.
    ///
    /// ```swift
    /// #expect(recorder.values == ["saved", "closed"])
    /// ```
    ///
    /// - Complexity: O(1) (the array is copied on write).
    public var values: [Value] { state.withLock { $0.values } }

    /// How many values are recorded.
    ///
    /// ```swift
    /// #expect(recorder.count == 2)
    /// ```
    ///
    /// - Complexity: O(1).
    public var count: Int { state.withLock { $0.values.count } }

    /// The most recent value, or `nil` when there is none.
    ///
    /// ```swift
    /// #expect(recorder.last == "closed")
    /// ```
    ///
    /// - Complexity: O(1).
    public var last: Value? { state.withLock { $0.values.last } }

    /// Returns the values recorded so far and forgets them: the next ``values`` holds only
    /// what is recorded afterwards. ``waitForCount(_:)`` counts the values held, so after a
    /// take it counts from zero again.
    ///
    /// ```swift
    /// #expect(recorder.take() == ["saved"])
    /// #expect(recorder.values == [])
    /// ```
    ///
    /// - Complexity: O(1).
    @discardableResult
    public func take() -> [Value] {
        state.withLock { state in
            defer { state.values = [] }
            return state.values
        }
    }

    /// Suspends until at least `count` values are recorded, then returns all of them (at
    /// least `count`, oldest first). Returns at once if they already are.
    ///
    /// There is no timeout: a test bounds its waits with `.timeLimit`. When the waiting task
    /// is cancelled (as when a test's time limit is exceeded) the wait returns early, with
    /// the fewer values recorded so far, so a test fails instead of hanging.
    ///
    /// ```swift
    /// let events = await recorder.waitForCount(3)
    /// #expect(events.count == 3)
    /// ```
    ///
    /// - Complexity: O(w) for w waiting tasks, plus the wait.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Value] {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let values = await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                let ready = state.withLock { state -> [Value]? in
                    if state.cancelledEarly.remove(id) != nil { return state.values }
                    if state.values.count >= count { return state.values }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let (waiter, values) = state.withLock { state -> (Waiter?, [Value]) in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return (nil, [])
                }
                return (state.waiters.remove(at: index), state.values)
            }
            waiter?.continuation.resume(returning: values)
        }
        // A wait that ended normally leaves no early-cancellation mark behind.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
        return values
    }

    /// How many tasks are suspended in ``waitForCount(_:)``.
    ///
    /// ```swift
    /// #expect(recorder.waiterCount == 0)
    /// ```
    ///
    /// - Complexity: O(1).
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Removes and returns the waiters whose count is reached, each with the values to
    /// return.
    private static func takeSatisfiedWaiters(
        _ state: inout State
    ) -> [(UnsafeContinuation<[Value], Never>, [Value])] {
        let count = state.values.count
        let values = state.values
        let ready = state.waiters.filter { $0.count <= count }.map { ($0.continuation, values) }
        state.waiters.removeAll { $0.count <= count }
        return ready
    }
}
