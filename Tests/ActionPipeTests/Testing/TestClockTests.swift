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

    @Test("advanceToNextDeadline moves to the earliest deadline only, and nil with no sleeper")
    func advanceToNextDeadline() async throws {
        let clock = TestClock()
        #expect(clock.advanceToNextDeadline() == nil)
        #expect(clock.now == TestClock.Instant(offset: .zero))
        let woke = Log()
        let first = Task {
            try await clock.sleep(for: .seconds(3))
            woke.append("3")
        }
        let second = Task {
            try await clock.sleep(for: .seconds(7))
            woke.append("7")
        }
        #expect(await clock.waitForSleepers(2))
        #expect(clock.advanceToNextDeadline() == TestClock.Instant(offset: .seconds(3)))
        try await first.value
        #expect(woke.all == ["3"])
        #expect(clock.sleeperCount == 1)
        #expect(clock.advanceToNextDeadline() == TestClock.Instant(offset: .seconds(7)))
        try await second.value
        #expect(woke.all == ["3", "7"])
    }

    @Test("run(sleeps:) lets a retry loop's backoffs happen one after another, in virtual time")
    func runSleeps() async throws {
        let clock = TestClock()
        let attempts = Log()
        let retries = Task {
            for attempt in 1...4 {
                attempts.append("attempt \(attempt) at \(clock.now)")
                if attempt < 4 { try await clock.sleep(for: .seconds(attempt * 10)) }
            }
        }
        #expect(await clock.run(sleeps: 3))
        try await retries.value
        #expect(clock.now == TestClock.Instant(offset: .seconds(60)))
        #expect(attempts.all.count == 4)
        #expect(attempts.all.last == "attempt 4 at +60.0 seconds")
        // Nothing asleep and nothing to let through: returns at once.
        #expect(await clock.run(sleeps: 0))
    }

    @Test("run(sleeps:) returns false when its task is cancelled while it waits")
    func runSleepsIsCancellable() async {
        let clock = TestClock()
        let running = Task { await clock.run(sleeps: 2) }
        running.cancel()
        #expect(await running.value == false)
        #expect(clock.now == TestClock.Instant(offset: .zero))
    }

    @Test("run(sleeps:) counts sleepers woken together: three at one deadline count three")
    func runSleepsCountsSleepers() async throws {
        let clock = TestClock()
        let woke = Log()
        let requests = Task {
            try await clock.sleep(for: .seconds(1))
            woke.append("list")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        try await clock.sleep(for: .seconds(1))
                        woke.append("thumbnail \(index)")
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(await clock.run(sleeps: 4))
        try await requests.value
        #expect(woke.all.count == 4)
        #expect(woke.all.first == "list")
    }
}
