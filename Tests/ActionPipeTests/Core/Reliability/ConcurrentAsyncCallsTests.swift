import ActionPipe
import Synchronization
import Testing

/// A chain of three pipes for `taConcurrent` whose handlers suspend between reading and
/// writing their call's process, so concurrent calls interleave.
///
/// p1 records the argument in side data and rewrites it to `argument * 2`; p2 checks both
/// and returns `argument * 1000 + rewritten`; p3 adds the side data it received. The
/// result of a call with argument `a` is `a * 1000 + 2a + a`, distinct for every `a`.
private struct InterleavingChain {
    let pipes: [ActionPipe]
    let runs = [Counter(), Counter(), Counter()]
    let mixUps = Counter()
    let inFlight = TAInFlight()
    let arrivals = TAArrivals()

    /// - Parameter barrier: when set, p1 waits until that many calls have arrived, so all
    ///   of them are suspended in the middle of the chain at once.
    init(barrier: Int? = nil) throws {
        pipes = try makeChain("p1", "p2", "p3")
        let (runs, mixUps, inFlight, arrivals) = (runs, mixUps, inFlight, arrivals)
        pipes[0].on(\.taConcurrent) { process in
            runs[0].increment()
            inFlight.enter()
            let argument = process.arguments
            process.sideData[Keys.counter] = argument
            await arrivals.arrive()
            if let barrier { await arrivals.wait(for: barrier) }
            await Task.yield()
            process.rewrite(\.self, to: argument * 2)
            return argument
        }
        pipes[1].on(\.taConcurrent) { process in
            runs[1].increment()
            await Task.yield()
            let original = process.sideData[Keys.counter] ?? -1
            if process.upstream != original || process.arguments != original * 2 {
                mixUps.increment()
            }
            await Task.yield()
            return original * 1000 + process.arguments
        }
        pipes[2].on(\.taConcurrent).upstreamNotNil().handle { process in
            runs[2].increment()
            await Task.yield()
            inFlight.leave()
            return (process.upstream ?? 0) + (process.sideData[Keys.counter] ?? 0)
        }
    }

    static func expected(_ argument: Int) -> Int { argument * 1000 + argument * 3 }
}

@Suite("Concurrent async calls on one chain")
struct ConcurrentAsyncCallsTests {
    @Test("200 concurrent calls: each has its own process and gets its own, correct result")
    func manyConcurrentCalls() async throws {
        let count = 200
        // Every call waits in p1 until all 200 are there: they all interleave for certain.
        let chain = try InterleavingChain(barrier: count)
        let results = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for argument in 0..<count {
                group.addTask {
                    (argument, try await chain.pipes[argument % 3].taConcurrent(argument))
                }
            }
            var results: [Int: Int] = [:]
            for try await (argument, result) in group { results[argument] = result }
            return results
        }

        #expect(results.count == count)
        let wrong = results.filter { $0.value != InterleavingChain.expected($0.key) }
        #expect(wrong.isEmpty, "calls whose result is not their own: \(wrong.keys.sorted())")
        #expect(Set(results.values).count == count, "every result is distinct")
        #expect(chain.mixUps.value == 0, "no call saw another call's side data or arguments")
        #expect(chain.runs.map(\.value) == [count, count, count])
        #expect(chain.inFlight.peak == count, "all calls were in the chain at the same time")
    }

    @Test("Concurrent reports: each trace and value belongs to its own call")
    func concurrentReports() async throws {
        let count = 60
        let chain = try InterleavingChain(barrier: count)
        // Every third call passes a negative argument, for which p3's condition still holds
        // (upstream is not nil), and every other call is made with a state.
        let reports = await withTaskGroup(of: (Int, ActionReport<Int>).self) { group in
            for argument in 0..<count {
                group.addTask {
                    let value = argument % 3 == 0 ? -argument : argument
                    let bound = chain.pipes[argument % 3].taConcurrent
                    let report =
                        argument.isMultiple(of: 2)
                        ? await bound.with(state: .start).report(value)
                        : await bound.report(value)
                    return (value, report)
                }
            }
            var reports: [(Int, ActionReport<Int>)] = []
            for await pair in group { reports.append(pair) }
            return reports
        }

        #expect(reports.count == count)
        let mismatches = reports.count { value, report in
            report.value != InterleavingChain.expected(value) || report.runCount != 3
                || report.trace.steps.map(\.outcome) != [.ran, .ran, .ran] || report.error != nil
        }
        #expect(mismatches == 0)
        let states = reports.map { $0.1.trace.state }
        #expect(states.count { $0 == .start } == count / 2)
        #expect(states.count { $0 == nil } == count / 2)
        #expect(chain.mixUps.value == 0)
    }

    @Test("Calls in flight keep the snapshot they started with while a handler is replaced")
    func registrationWhileCallsAreSuspended() async throws {
        let count = 50
        let pipes = try makeChain("p1", "p2")
        let arrivals = TAArrivals()
        let gate = TAGate()
        let oldRuns = Counter()
        let newRuns = Counter()
        pipes[0].on(\.taStep) { process in
            await arrivals.arrive()
            await gate.wait()
            return process.arguments
        }
        pipes[1].on(\.taStep) { process in
            oldRuns.increment()
            return (process.upstream ?? 0) + 1_000
        }

        let results = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for argument in 0..<count {
                group.addTask { (argument, try await pipes[argument % 2].taStep(argument)) }
            }
            await arrivals.wait(for: count)
            // Every call is suspended in p1: replace p2's handler, then let them go.
            pipes[1].on(\.taStep) { process in
                newRuns.increment()
                return (process.upstream ?? 0) + 2_000
            }
            await gate.open()
            var results: [Int: Int] = [:]
            for try await (argument, result) in group { results[argument] = result }
            return results
        }

        // The suspended calls had already read the chain: they finish with the old handler.
        #expect(results.count == count)
        #expect(results.allSatisfy { $0.value == $0.key + 1_000 })
        #expect(oldRuns.value == count)
        #expect(newRuns.value == 0)
        // The next call sees the new handler.
        #expect(try await pipes[0].taStep(1) == 2_001)
        #expect(newRuns.value == 1)
    }

    @Test("Registering, replacing and composing while calls run: every call is exact")
    func registrationDuringConcurrentCalls() async throws {
        let core = try makeChain("core1", "core2", "core3")
        let coreRuns = [Counter(), Counter(), Counter()]
        let churnRuns = Counter()
        let calls = 150
        let callersDone = Counter()
        let rounds = Counter()

        @Sendable func registerCore(_ index: Int) {
            let runs = coreRuns[index]
            core[index].on(\.taConcurrent) { process in
                runs.increment()
                await Task.yield()
                return (process.upstream ?? 0) + 1
            }
        }
        for index in 0..<3 { registerCore(index) }

        let wrong = try await withThrowingTaskGroup(of: Int.self) { group in
            // The churn task: replaces core2's handler by an equivalent one, and appends
            // forwarding pipes (which leave the result unchanged) and removes them again.
            group.addTask {
                var round = 0
                while round < 20 || callersDone.value < calls {
                    registerCore(1)
                    let extra = ActionPipe(name: "extra\(round)")
                    extra.on(\.taConcurrent) { process in
                        churnRuns.increment()
                        await Task.yield()
                        return process.upstream
                    }
                    try core[2].append(extra)
                    await Task.yield()
                    extra.removeFromChain()
                    round += 1
                    rounds.increment()
                }
                return 0
            }
            for argument in 0..<calls {
                group.addTask {
                    defer { callersDone.increment() }
                    let result = try await core[argument % 3].taConcurrent(argument)
                    return result == 3 ? 0 : 1
                }
            }
            var wrong = 0
            for try await mismatch in group { wrong += mismatch }
            return wrong
        }

        #expect(wrong == 0, "every call returns 3 whatever the churn")
        #expect(coreRuns.map(\.value) == [calls, calls, calls])
        #expect(rounds.value >= 20)
        #expect(core[0].chainNames == ["core1", "core2", "core3"])
        // Forwarders ran only in calls that started while they were in the chain; each
        // such call ran at most one of them.
        #expect(churnRuns.value <= calls)
    }

    @Test("Some of many suspended calls are cancelled: exact counts of each outcome")
    func mixedCancellation() async throws {
        let count = 100
        let pipes = try makeChain("p1", "p2", "p3")
        let arrivals = TAArrivals()
        let gate = TAGate()
        let runs = [Counter(), Counter(), Counter()]
        pipes[0].on(\.taWork) { process in
            runs[0].increment()
            await arrivals.arrive()
            await gate.wait()  // ignores cancellation: every call gets here and waits
            return process.arguments
        }
        pipes[1].on(\.taWork) { process in
            runs[1].increment()
            await Task.yield()
            return (process.upstream ?? 0) * 2
        }
        pipes[2].on(\.taWork) { process in
            runs[2].increment()
            return (process.upstream ?? 0) + 1
        }

        let tasks = (0..<count).map { argument in
            Task { await pipes[argument % 3].taWork.report(argument) }
        }
        await arrivals.wait(for: count)
        let cancelled = Set((0..<count).filter { $0 % 3 == 1 || $0 % 7 == 0 })
        for index in cancelled { tasks[index].cancel() }
        await gate.open()

        var completed: [Int: Int] = [:]
        var cancelledReports = 0
        var unexpected: [Int] = []
        for (argument, task) in tasks.enumerated() {
            let report = await task.value
            if report.error is CancellationError, report.thrownBy == nil,
                report.runCount == 1,
                report.trace.steps.map(\.outcome) == [
                    .ran, .skipped(.cancelled), .skipped(.cancelled),
                ]
            {
                cancelledReports += 1
                if !cancelled.contains(argument) { unexpected.append(argument) }
            } else if let value = report.value, report.error == nil {
                completed[argument] = value
                if cancelled.contains(argument) { unexpected.append(argument) }
            } else {
                unexpected.append(argument)
            }
        }

        #expect(unexpected.isEmpty, "calls with the wrong outcome: \(unexpected)")
        #expect(cancelledReports == cancelled.count)
        #expect(completed.count == count - cancelled.count)
        #expect(completed.allSatisfy { $0.value == $0.key * 2 + 1 })
        #expect(runs.map(\.value) == [count, count - cancelled.count, count - cancelled.count])
    }
}
