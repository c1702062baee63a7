import ActionPipeConcurrency

/// A clock that only moves when a test says so (``advance(by:)``), so retries, backoffs and
/// timeouts run in virtual time; sleepers resume in deadline order. Wait for the code under
/// test to sleep with ``waitForSleepers(_:)`` before advancing.
///
/// `@unchecked Sendable`: every stored value is inside a `LockedValue`.
public final class TestClock: Clock, @unchecked Sendable {
    /// A moment of a ``TestClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock's start.
        public let offset: Duration

        /// The instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// `+5.0 seconds`.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State: _CountWaiting {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var waits = _CountWaits<Void>()
        var waitedCount: Int { sleepers.count }
        var waitResult: Void { () }
    }

    private let state = LockedValue(State())

    /// A clock at its start, offset zero.
    public init() {}

    /// The current instant; moves only with ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline`, or throws `CancellationError`.
    ///
    /// - Complexity: O(s) for s sleepers.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { $0.waits.makeID() }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let (ended, wake) = state.withLock {
                    state -> (Result<Void, any Error>?, [UnsafeContinuation<Void, Never>]) in
                    if state.waits.cancelledEarly.remove(id) != nil {
                        return (.failure(CancellationError()), [])
                    }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.waits.take(reaching: state.sleepers.count))
                }
                if let ended { continuation.resume(with: ended) }
                for waiter in wake { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.waits.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // Drop a mark left by a cancellation that came after the sleep ended.
        state.withLock { _ = $0.waits.cancelledEarly.remove(id) }
    }

    /// Moves the clock `duration` forward (never back) and resumes the sleepers it made due.
    ///
    /// - Complexity: O(s log s) for s sleepers.
    public func advance(by duration: Duration) {
        move { $0.now.advanced(by: max(duration, .zero)) }
    }

    /// Moves the clock to `instant`, if later, and resumes the sleepers it made due.
    ///
    /// - Complexity: O(s log s) for s sleepers.
    public func advance(to instant: Instant) {
        move { _ in instant }
    }

    /// Suspends until at least `count` tasks are asleep on this clock; `false` when the
    /// waiting task is cancelled first.
    ///
    /// - Complexity: O(w) for w waiting tests.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1) async -> Bool {
        await state.wait(for: count)
        return state.withLock { $0.sleepers.count >= count } || !Task.isCancelled
    }

    /// Moves the clock to the earliest sleeper's deadline (`nil` if none) and resumes those due.
    ///
    /// - Complexity: O(s log s) for s sleepers.
    @discardableResult
    public func advanceToNextDeadline() -> Instant? {
        move { $0.sleepers.map(\.deadline).min() }.deadline
    }

    /// Lets `count` sleeps end in virtual time: each time a task sleeps, moves the clock to
    /// the earliest deadline, until `count` sleepers have woken; `false` when cancelled.
    ///
    /// - Complexity: O(count × s log s) for s sleepers, plus the waits.
    @discardableResult
    public func run(sleeps count: Int) async -> Bool {
        var woken = 0
        while woken < count {
            guard await waitForSleepers(1), !Task.isCancelled else { return false }
            woken += move { $0.sleepers.map(\.deadline).min() }.woken
        }
        return true
    }

    /// Moves the clock to `target` (never back) and resumes the sleepers due, earliest first.
    @discardableResult
    private func move(to target: (State) -> Instant?) -> (deadline: Instant?, woken: Int) {
        let (deadline, due) = state.withLock { state -> (Instant?, [Sleeper]) in
            guard let next = target(state) else { return (nil, []) }
            let now = max(state.now, next)
            state.now = now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return (next, due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
        }
        for sleeper in due { sleeper.continuation.resume() }
        return (deadline, due.count)
    }
}
