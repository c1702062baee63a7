import ActionPipe
import Testing

/// A chain of three pipes whose first handler reports its arrival and then stays suspended
/// on a gate (which ignores cancellation), so a test can cancel the call at a known point.
private struct HeldChain {
    let pipes: [ActionPipe]
    let arrived = TAGate()
    let arrivals = TAArrivals()
    let gate = TAGate()
    let runs = [TACounter(), TACounter(), TACounter()]

    init() throws {
        pipes = try makeChain("p1", "p2", "p3")
        let (arrived, arrivals, gate, runs) = (arrived, arrivals, gate, runs)
        pipes[0].on(\.taWork) { process in
            await runs[0].increment()
            await arrivals.arrive()
            await arrived.open()
            await gate.wait()
            return process.arguments + 1
        }
        pipes[1].on(\.taWork) { process in
            await runs[1].increment()
            return (process.upstream ?? 0) * 10
        }
        pipes[2].on(\.taWork) { process in
            await runs[2].increment()
            return (process.upstream ?? 0) + 3
        }
    }

    var runCounts: [Int] {
        get async { [await runs[0].value, await runs[1].value, await runs[2].value] }
    }
}

@Suite("Cancellation of async calls")
struct CancellationTests {
    @Test("Cancelled while a handler is suspended: no later handler starts, the call throws")
    func cancelMidChain() async throws {
        let chain = try HeldChain()
        let call = Task { try await chain.pipes[2].taWork(1) }
        await chain.arrived.wait()
        call.cancel()
        await chain.gate.open()

        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(await chain.runCounts == [1, 0, 0], "p1 finished, p2 and p3 never started")
    }

    @Test("The report of a cancelled call: .cancelled for the rest, thrownBy nil, no value")
    func reportOfACancelledCall() async throws {
        let chain = try HeldChain()
        let call = Task { await chain.pipes[0].taWork.report(1) }
        await chain.arrived.wait()
        call.cancel()
        await chain.gate.open()

        let report = await call.value
        #expect(report.error is CancellationError)
        #expect(report.thrownBy == nil, "nobody threw: the call was cancelled")
        #expect(report.isFailure)
        #expect(report.value == nil, "a cancelled call has no value, not p1's")
        #expect(report.runCount == 1)
        #expect(report.stoppedBy == nil)
        #expect(
            report.trace.steps.map(\.outcome) == [.ran, .skipped(.cancelled), .skipped(.cancelled)])
        #expect(report.trace.ran == ["p1"])
        #expect(
            report.trace.description
                == "taWork(1): p1 ran → p2 skipped (call cancelled) → p3 skipped (call cancelled)")
        #expect(await chain.runCounts == [1, 0, 0])

        // The chain itself is unaffected: the next call runs every handler.
        #expect(try await chain.pipes[1].taWork(1) == 23)
        #expect(await chain.runCounts == [2, 1, 1])
    }

    @Test("Cancellation is checked before each handler, even one a condition would skip")
    func cancellationBeforeConditions() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let arrived = TAGate()
        let gate = TAGate()
        pipes[0].on(\.taWork) { process in
            await arrived.open()
            await gate.wait()
            return process.arguments
        }
        pipes[1].on(\.taWork).state(.error).handle { _ in 0 }
        pipes[2].on(\.taWork) { _ in 0 }
        let call = Task { await pipes[0].taWork.with(state: .start).report(5) }
        await arrived.wait()
        call.cancel()
        await gate.open()
        let report = await call.value
        #expect(report.error is CancellationError)
        #expect(
            report.trace.steps.map(\.outcome) == [.ran, .skipped(.cancelled), .skipped(.cancelled)])
    }

    @Test("After an async handler, cancellation stops a synchronous handler from starting")
    func syncHandlerAfterASuspension() async throws {
        let pipes = try makeChain("waiter", "sync1", "sync2")
        let arrived = TAGate()
        let gate = TAGate()
        let runs = TestLock(0)
        pipes[0].on(\.taWork) { process in
            await arrived.open()
            await gate.wait()
            return process.arguments
        }
        for pipe in pipes.dropFirst() {
            pipe.on(\.taWork).handleSynchronously { process in
                runs.withLock { $0 += 1 }
                return process.upstream
            }
        }
        let call = Task { await pipes[0].taWork.report(1) }
        await arrived.wait()
        call.cancel()
        await gate.open()
        let report = await call.value
        #expect(report.error is CancellationError)
        #expect(
            report.trace.steps.map(\.outcome) == [.ran, .skipped(.cancelled), .skipped(.cancelled)])
        #expect(runs.withLock { $0 } == 0)
    }

    @Test(
        "Synchronous handlers in a row run as one step; the next async handler does not start")
    func syncHandlersRunAsOneStep() async throws {
        let pipes = try makeChain("canceller", "sync", "async", "last")
        // A synchronous handler cannot be suspended, so cancellation can reach the task
        // between two of them only from the handler itself: the check comes before the
        // next handler that is async, or that follows a suspension.
        registerCancellerAndTimesTen(pipes[0], pipes[1])
        pipes[2].on(\.taWork) { process in process.upstream }
        pipes[3].on(\.taWork).handleSynchronously { process in process.upstream }
        let report = await Task { await pipes[0].taWork.report(1) }.value
        #expect(report.error is CancellationError)
        #expect(report.thrownBy == nil)
        #expect(report.value == nil, "a cancelled call has no value")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .ran, .skipped(.cancelled), .skipped(.cancelled),
            ])

        // Without an async handler after them, the call completes: its handlers all ran
        // before any point where cancellation is checked.
        let syncOnly = try makeChain("canceller", "sync")
        registerCancellerAndTimesTen(syncOnly[0], syncOnly[1])
        let completed = await Task { await syncOnly[0].taWork.report(1) }.value
        #expect(completed.error == nil)
        #expect(completed.value == 20)
        #expect(completed.trace.steps.map(\.outcome) == [.ran, .ran])
    }

    @Test("A task cancelled before the call: no handler starts and the call throws")
    func cancelledBeforeTheCall() async throws {
        let chain = try HeldChain()
        let start = TAGate()
        let call = Task { () async -> (Result<Int?, any Error>, ActionReport<Int>) in
            await start.wait()
            let result: Result<Int?, any Error>
            do {
                result = .success(try await chain.pipes[1].taWork(1))
            } catch {
                result = .failure(error)
            }
            return (result, await chain.pipes[1].taWork.report(1))
        }
        call.cancel()
        await start.open()
        let (result, report) = await call.value

        #expect(throws: CancellationError.self) { try result.get() }
        #expect(report.error is CancellationError)
        #expect(report.thrownBy == nil)
        #expect(report.runCount == 0)
        #expect(report.value == nil)
        #expect(
            report.trace.steps.map(\.outcome) == Array(repeating: .skipped(.cancelled), count: 3))
        #expect(await chain.runCounts == [0, 0, 0])
    }

    @Test("A running handler sees the cancellation: Task.isCancelled turns true inside it")
    func runningHandlerSeesIsCancelled() async throws {
        let pipes = try makeChain("p1", "p2")
        let arrived = TAGate()
        let gate = TAGate()
        let seen = TALog()
        pipes[0].on(\.taWork) { process in
            await seen.append("before: \(Task.isCancelled)")
            await arrived.open()
            await gate.wait()
            await seen.append("after: \(Task.isCancelled)")
            // The handler decides what to do with it: here it throws.
            try Task.checkCancellation()
            return process.arguments
        }
        pipes[1].on(\.taWork) { _ in
            await seen.append("p2 ran")
            return 0
        }

        let call = Task { await pipes[1].taWork.report(1) }
        await arrived.wait()
        call.cancel()
        await gate.open()
        let report = await call.value
        #expect(await seen.all == ["before: false", "after: true"])
        #expect(report.error is CancellationError)
        #expect(report.thrownBy == "p1", "the handler threw the CancellationError itself")
        #expect(report.runCount == 1)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .threw(String(describing: CancellationError())), .skipped(.earlierHandlerThrew),
            ])
    }

    @Test("Task.sleep in a running handler throws CancellationError, reported as thrown by it")
    func sleepingHandlerIsInterrupted() async throws {
        let pipes = try makeChain("p1", "sleeper", "p3")
        let arrivals = TAArrivals()
        let thirdRuns = TACounter()
        pipes[0].on(\.taWork) { process in process.arguments }
        pipes[1].on(\.taWork) { process in
            await arrivals.arrive()
            // Far longer than the test may take: only cancellation ends it early.
            try await Task.sleep(for: .seconds(3_600))
            return process.upstream
        }
        pipes[2].on(\.taWork) { process in
            await thirdRuns.increment()
            return process.upstream
        }

        let started = ContinuousClock.now
        let call = Task { await pipes[0].taWork.report(4) }
        await arrivals.wait(for: 1)
        call.cancel()
        let report = await call.value
        // Ended by the cancellation: long before the hour (a busy machine may take a minute).
        #expect(ContinuousClock.now - started < .seconds(600))
        #expect(report.error is CancellationError)
        #expect(report.thrownBy == "sleeper")
        #expect(report.value == nil)
        #expect(report.runCount == 2)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .threw("CancellationError()"), .skipped(.earlierHandlerThrew),
            ])
        #expect(await thirdRuns.value == 0)

        // A plain call rethrows the sleeper's CancellationError.
        let plain = Task { try await pipes[0].taWork(4) }
        await arrivals.wait(for: 2)
        plain.cancel()
        await #expect(throws: CancellationError.self) { try await plain.value }
        #expect(await thirdRuns.value == 0)
    }

    @Test("Cancelled while the last handler runs: the call keeps its result")
    func cancelledDuringTheLastHandler() async throws {
        let pipes = try makeChain("p1", "last")
        let arrived = TAGate()
        let gate = TAGate()
        pipes[0].on(\.taWork) { process in process.arguments * 2 }
        pipes[1].on(\.taWork) { process in
            await arrived.open()
            await gate.wait()
            return (process.upstream ?? 0) + 1
        }
        let call = Task { await pipes[0].taWork.report(20) }
        await arrived.wait()
        call.cancel()
        await gate.open()
        let report = await call.value
        // No handler was left to start, so nothing was skipped for the cancellation.
        #expect(report.value == 41)
        #expect(report.error == nil)
        #expect(report.trace.steps.map(\.outcome) == [.ran, .ran])
    }

    @Test("A call with no handlers returns nil, even from a cancelled task")
    func noHandlersReturnsNil() async throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.taStep) { _ in 1 }  // another action: does not count
        #expect(try await pipes[1].taWork(1) == nil)
        let report = await pipes[1].taWork.report(1)
        #expect(report.value == nil)
        #expect(report.error == nil)
        #expect(report.runCount == 0)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.notRegistered), .skipped(.notRegistered),
            ])

        let start = TAGate()
        let cancelled = Task { () async throws -> Int? in
            await start.wait()
            #expect(Task.isCancelled)
            return try await pipes[0].taWork(1)
        }
        cancelled.cancel()
        await start.open()
        #expect(try await cancelled.value == nil)
    }

    @Test("Cancelling a task group cancels every call suspended in it")
    func cancellingAGroup() async throws {
        let chain = try HeldChain()
        let count = 8
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        _ = try await chain.pipes[index % 3].taWork(index)
                        return false
                    } catch {
                        return error is CancellationError
                    }
                }
            }
            // Wait until every call is held in p1, then cancel them all.
            await chain.arrivals.wait(for: count)
            group.cancelAll()
            await chain.gate.open()
            var cancelled: [Bool] = []
            for await outcome in group { cancelled.append(outcome) }
            return cancelled
        }
        #expect(outcomes == Array(repeating: true, count: count))
        #expect(await chain.runCounts == [count, 0, 0])
    }
}

/// Registers on `canceller` a synchronous handler that cancels its own task and returns
/// the argument plus one, and on `next` a synchronous one that multiplies the upstream by
/// ten.
private func registerCancellerAndTimesTen(_ canceller: ActionPipe, _ next: ActionPipe) {
    canceller.on(\.taWork).handleSynchronously { process in
        withUnsafeCurrentTask { $0?.cancel() }
        return process.arguments + 1
    }
    next.on(\.taWork).handleSynchronously { process in (process.upstream ?? 0) * 10 }
}
