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
    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: UnsafeContinuation<[Value], Never>
    }

    private struct State {
        var values: [Value] = []
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var cancelledEarly: Set<UInt64> = []
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
        let ready = state.withLock { state -> [(UnsafeContinuation<[Value], Never>, [Value])] in
            state.values.append(value)
            guard !state.waiters.isEmpty else { return [] }
            return Self.takeSatisfiedWaiters(&state)
        }
        for (continuation, values) in ready { continuation.resume(returning: values) }
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
        // Drop a mark left by a cancellation that came after the wait ended.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
        return values
    }

    /// How many tasks are suspended in ``waitForCount(_:)``.
    ///
    /// - Complexity: O(1).
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

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
