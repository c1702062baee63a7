import ActionPipeTesting
import Testing

@Suite("ActionPipeTesting: TestClock")
struct TestClockTests {
    @Test("sleepers wake in deadline order when the clock reaches them, not before")
    func wakesInOrder() async throws {
        let clock = TestClock()
        let woke = Log()
        let late = Task {
            try await clock.sleep(for: .seconds(20))
            woke.append("late")
        }
        let early = Task {
            try await clock.sleep(for: .seconds(10))
            woke.append("early")
        }
        await clock.waitForSleepers(2)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(woke.all == ["early"])
        #expect(clock.sleeperCount == 1)
        clock.advance(to: TestClock.Instant(offset: .seconds(20)))
        try await late.value
        #expect(woke.all == ["early", "late"])
        #expect(clock.now.offset == .seconds(20))
    }

    @Test("a deadline already passed returns at once; the clock never goes back")
    func pastDeadline() async throws {
        let clock = TestClock()
        clock.advance(by: .seconds(5))
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(1)), tolerance: nil)
        clock.advance(by: .seconds(-3))
        clock.advance(to: TestClock.Instant(offset: .zero))
        #expect(clock.now.offset == .seconds(5))
    }

    @Test("a cancelled sleeper throws CancellationError and is removed")
    func cancellation() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("a task cancelled before it sleeps throws at once")
    func cancelledBeforeSleeping() async {
        let clock = TestClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("100 tasks sleeping concurrently all wake, each once")
    func manySleepers() async throws {
        let clock = TestClock()
        let woke = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    try await clock.sleep(for: .seconds(Int64(index % 7)) + .seconds(1))
                    woke.increment()
                }
            }
            await clock.waitForSleepers(100)
            clock.advance(by: .seconds(10))
            try await group.waitForAll()
        }
        #expect(woke.value == 100)
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers returns false at once when its task is cancelled")
    func waitForSleepersIsCancellable() async {
        let clock = TestClock()
        let waiting = Task { await clock.waitForSleepers(1) }
        waiting.cancel()
        #expect(await waiting.value == false)
        // Cancelled while already waiting, too.
        let later = Task { await clock.waitForSleepers(3) }
        try? await Task.sleep(for: .milliseconds(10))
        later.cancel()
        #expect(await later.value == false)
    }

    @Test("waitForSleepers returns true once the sleepers are there")
    func waitForSleepersSatisfied() async throws {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(5)) }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(5))
        try await sleeper.value
    }
}
