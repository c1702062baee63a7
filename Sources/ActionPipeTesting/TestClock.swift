import ActionPipeConcurrency

/// A clock that only moves when a test says so: retries, backoffs and timeouts that wait on
/// it run in virtual time, instantly and deterministically.
///
/// Pass it wherever a part takes a clock (``OperationTreeOptions/clock``). Sleepers resume,
/// in deadline order, when ``advance(by:)`` or ``advance(to:)`` reaches their deadline. A
/// test waits for the code under test to sleep with ``waitForSleepers(_:)`` before
/// advancing, or lets a number of sleeps happen with ``run(sleeps:)``.
///
/// ```swift
/// let clock = TestClock()
/// let woke = Task { try await clock.sleep(for: .seconds(3600)) }
/// await clock.waitForSleepers(1)        // the task is asleep
/// clock.advance(by: .seconds(3600))     // an hour passes, at once
/// try await woke.value
/// ```
///
/// `@unchecked Sendable`: every stored value is inside a `LockedValue`.
public final class TestClock: Clock, @unchecked Sendable {
    /// A moment of a ``TestClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// How long after the clock's start this instant is.
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

        /// `+5.0 seconds`: the offset from the clock's start.
        public var description: String { "+\(offset)" }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State: _CountWaiting {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Ids of sleeps cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []
        var waits = _CountWaits<Void>()
        var waitedCount: Int { sleepers.count }
        var waitResult: Void { () }
    }

    private let state = LockedValue(State())

    /// A clock at its start (``now`` is `Instant(offset: .zero)`).
    public init() {}

    /// The current instant; moves only with ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock moves by exactly what a test asks.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until the clock reaches `deadline` (at once if it has), or throws
    /// `CancellationError` when the task is cancelled first.
    ///
    /// - Complexity: O(s) for s sleepers.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                let (resume, cancelled, wake) = state.withLock {
                    state -> (Bool, Bool, [UnsafeContinuation<Void, Never>]) in
                    if state.cancelledEarly.remove(id) != nil { return (false, true, []) }
                    if deadline <= state.now { return (true, false, []) }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, false, state.waits.take(reaching: state.sleepers.count))
                }
                if cancelled {
                    continuation.resume(throwing: CancellationError())
                } else if resume {
                    continuation.resume()
                }
                for waiter in wake { waiter.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // Drop a mark left by a cancellation that came after the sleep ended.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }

    /// Moves the clock `duration` forward (never back) and resumes every sleeper it made
    /// due, earliest first.
    ///
    /// - Complexity: O(s log s) for s sleepers.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: max(duration, .zero))
            return Self.takeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to `instant`, if later than ``now``, and resumes every sleeper it
    /// made due, earliest first.
    ///
    /// - Complexity: O(s log s) for s sleepers.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            return Self.takeDue(&state)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are asleep on this clock: call it before
    /// advancing. Returns `false` at once when the waiting task is cancelled first.
    ///
    /// - Complexity: O(w) for w waiting tests.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1) async -> Bool {
        await state.wait(for: count)
        return state.withLock { $0.sleepers.count >= count } || !Task.isCancelled
    }

    /// Moves the clock to the earliest sleeper's deadline and resumes the sleepers due then.
    ///
    /// - Returns: The deadline it moved to, or `nil` when no task was asleep.
    /// - Complexity: O(s log s) for s sleepers.
    @discardableResult
    public func advanceToNextDeadline() -> Instant? {
        advanceToNextDeadlineCounting().deadline
    }

    private func advanceToNextDeadlineCounting() -> (deadline: Instant?, woken: Int) {
        let (deadline, due) = state.withLock { state -> (Instant?, [Sleeper]) in
            guard let next = state.sleepers.map(\.deadline).min() else { return (nil, []) }
            state.now = max(state.now, next)
            return (next, Self.takeDue(&state))
        }
        for sleeper in due { sleeper.continuation.resume() }
        return (deadline, due.count)
    }

    /// Lets `count` sleeps end in virtual time: each time a task sleeps, moves the clock to
    /// the earliest deadline, until `count` sleepers have woken (three requests sleeping at
    /// once count three). The clock cannot know whether a woken task sleeps again, so the
    /// test says how many. Returns `false` at once when the waiting task is cancelled.
    ///
    /// ```swift
    /// let retries = Task { for _ in 0..<3 { try await clock.sleep(for: .seconds(2)) } }
    /// #expect(await clock.run(sleeps: 3))
    /// #expect(clock.now == TestClock.Instant(offset: .seconds(6)))
    /// ```
    ///
    /// - Complexity: O(count × s log s) for s sleepers, plus the waits.
    @discardableResult
    public func run(sleeps count: Int) async -> Bool {
        var woken = 0
        while woken < count {
            guard await waitForSleepers(1), !Task.isCancelled else { return false }
            woken += advanceToNextDeadlineCounting().woken
        }
        return true
    }

    private static func takeDue(_ state: inout State) -> [Sleeper] {
        let now = state.now
        let due = state.sleepers.filter { $0.deadline <= now }
        state.sleepers.removeAll { $0.deadline <= now }
        return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
    }
}
