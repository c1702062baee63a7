import ActionPipe
import Testing

/// A server whose async method is registered with `handle(owner:method:)` and through a
/// responder.
private final class TitleServer: ActionResponder {
    let fetches = Counter()

    func title(_ id: Int) async throws -> String? {
        fetches.increment()
        await Task.yield()
        guard id >= 0 else { throw TAError(code: id) }
        return "Document \(id)"
    }

    static func registerActions(in registrar: inout ActionRegistrar<TitleServer>) {
        registrar.add(\.taResponder, method: TitleServer.title)
        registrar.add(
            \.taStep, where: { $0.state(.process) },
            { server, process in
                await Task.yield()
                server.fetches.increment()
                return process.arguments * 3
            })
    }
}

@Suite("Async actions: the core semantics, with handlers that suspend")
struct AsyncActionTests {
    // MARK: Order and results

    @Test("handleSynchronously: sync handlers mix with async ones, in order, with every rule")
    func synchronousHandlersMixWithAsyncOnes() async throws {
        let pipes = try makeChain("p1", "p2", "p3", "p4")
        let seen = Box<[String]>([])
        pipes[0].on(\.taStep).handleSynchronously { process in
            seen.set(seen.value + ["p1 sync upstream \(show(process.upstream))"])
            process.rewriteArguments(process.arguments + 1)
            return 10
        }
        pipes[1].on(\.taStep) { process in
            await Task.yield()
            seen.set(seen.value + ["p2 async upstream \(show(process.upstream))"])
            return (process.upstream ?? 0) + process.arguments
        }
        // Its state does not match the call's: skipped.
        pipes[2].on(\.taStep).state(.error).handleSynchronously { _ in -1 }
        pipes[3].on(\.taStep).upstreamNotNil().handleSynchronously { process in
            seen.set(seen.value + ["p4 sync upstream \(show(process.upstream))"])
            process.stop()
            return process.upstream! * 2
        }

        let report = await pipes[0].taStep.with(state: .process).report(1)
        #expect(report.value == 24)  // 10, then 10 + 2, then (12) * 2
        #expect(report.error == nil)
        #expect(report.stoppedBy == "p4")
        #expect(
            seen.value == [
                "p1 sync upstream nil", "p2 async upstream 10", "p4 sync upstream 12",
            ])
        #expect(report.trace.ran == ["p1", "p2", "p4"])

        // In a cancelled task no handler starts, synchronous ones included.
        seen.set([])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pipes[0].taStep(1)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(seen.value.isEmpty)
    }

    @Test("Three pipes run in chain order, each after the previous one has returned")
    func orderAcrossThreePipes() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = TALog()
        let server = TAServer()
        for (index, pipe) in pipes.enumerated() {
            let name = pipe.name
            pipe.on(\.taStep) { process in
                await log.append("\(name) start, upstream \(show(process.upstream))")
                _ = try await server.fetch(name)  // suspends: hops to another actor
                await Task.yield()
                await log.append("\(name) end")
                return (process.upstream ?? 0) * 10 + index + 1
            }
        }

        #expect(try await pipes[2].taStep(0) == 123)
        #expect(
            await log.all == [
                "p1 start, upstream nil", "p1 end",
                "p2 start, upstream 1", "p2 end",
                "p3 start, upstream 12", "p3 end",
            ])
        #expect(await server.requests == ["p1", "p2", "p3"])

        let report = await pipes[1].taStep.report(0)
        #expect(report.value == 123)
        #expect(report.runCount == 3)
        #expect(report.error == nil)
        #expect(report.thrownBy == nil)
        #expect(report.trace.steps.map(\.outcome) == [.ran, .ran, .ran])
        #expect(report.trace.description == "taStep(0): p1 ran → p2 ran → p3 ran")
    }

    @Test("A handler that suspends holds the call: the next handler waits for it")
    func suspendedHandlerHoldsTheCall() async throws {
        let pipes = try makeChain("p1", "p2")
        let gate = TAGate()
        let secondRuns = TACounter()
        pipes[0].on(\.taStep) { process in
            await gate.wait()
            return process.arguments + 1
        }
        pipes[1].on(\.taStep) { process in
            await secondRuns.increment()
            return (process.upstream ?? 0) * 2
        }

        let call = Task { try await pipes[1].taStep(4) }
        await gate.untilWaiting(1)  // p1 is suspended at the gate
        await Task.yield()  // give the call a chance to (wrongly) move on
        #expect(await gate.waiting == 1)
        #expect(await secondRuns.value == 0, "p2 must not start while p1 is suspended")
        await gate.open()
        #expect(try await call.value == 10)
        #expect(await secondRuns.value == 1)
    }

    @Test("A call with no handler returns nil; pipes that did not register are skipped")
    func noHandler() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        #expect(try await pipes[0].taStep(1) == nil)
        pipes[1].on(\.taStep) { process in process.arguments * 7 }
        #expect(try await pipes[0].taStep(2) == 14)
        let report = await pipes[2].taStep.report(3)
        #expect(report.value == 21)
        #expect(report.runCount == 1)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.notRegistered), .ran, .skipped(.notRegistered),
            ])
    }

    // MARK: Conditions and state

    @Test("upstream(is:) and upstreamNotNil select async handlers")
    func upstreamConditions() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = TALog()
        pipes[0].on(\.taAnything) { process in
            await Task.yield()
            switch process.arguments {
            case 0: return nil
            case 1: return "text"
            case 2:
                let nothing: Int? = nil
                return nothing as any Sendable  // a present value that is a nil optional
            default: return process.arguments
            }
        }
        pipes[1].on(\.taAnything).upstream(is: Int.self).handle { process in
            await log.append("p2 \(show(process.upstream))")
            return (process.upstream as? Int ?? 0) + 1
        }
        pipes[2].on(\.taAnything).upstreamNotNil().handle { process in
            await log.append("p3 \(show(process.upstream))")
            return process.upstream
        }

        let none = await pipes[0].taAnything.report(0)
        #expect(none.value == nil)
        #expect(
            none.trace.steps.map(\.outcome) == [
                .ran, .skipped(.upstreamNotOfType("Int")), .skipped(.upstreamNil),
            ])
        let text = await pipes[0].taAnything.report(1)
        #expect(text.value as? String == "text")
        #expect(
            text.trace.steps.map(\.outcome) == [.ran, .skipped(.upstreamNotOfType("Int")), .ran])
        let nilInside = await pipes[0].taAnything.report(2)
        #expect(
            nilInside.trace.steps.map(\.outcome) == [
                .ran, .skipped(.upstreamNotOfType("Int")), .skipped(.upstreamNil),
            ])
        let number = try await pipes[0].taAnything(41)
        #expect(number as? Int == 42)
        #expect(await log.all == ["p3 text", "p2 41", "p3 42"])
    }

    @Test("argument(is:), argumentNotNil and when() select async handlers")
    func argumentConditions() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.taPair).argumentNotNil(\.1).handle { process in
            await Task.yield()
            return "p1 saw \(process.arguments.1 ?? "nil")"
        }
        pipes[1].on(\.taPair).argument(\.0, is: Int.self)
            .when("first is even") { $0.arguments.0.isMultiple(of: 2) }
            .handle { process in "\(process.upstream ?? "-") + p2 \(process.arguments.0)" }
        pipes[2].on(\.taPair).argument(\.1, is: String.self).handle { process in
            "\(process.upstream ?? "-") + p3"
        }

        #expect(try await pipes[0].taPair(2, "a") == "p1 saw a + p2 2 + p3")
        let report = await pipes[0].taPair.report(3, nil)
        #expect(report.value == nil)
        #expect(report.runCount == 0)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.argumentNil(argument: "1")),
                .skipped(.conditionFailed("first is even")),
                .skipped(.argumentNotOfType(argument: "1", expected: "String")),
            ])
        #expect(try await pipes[0].taPair(4, nil) == "- + p2 4")
    }

    @Test("States: with(state:) on the pipe or on the action selects async handlers")
    func statesSelectHandlers() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.taLoad).state(.start).handle { process in
            await Task.yield()
            return "start(\(show(process.state)))"
        }
        pipes[1].on(\.taLoad).state([.success, .error]).handle { process in
            "\(process.upstream ?? "-") done(\(show(process.state)))"
        }
        pipes[2].on(\.taLoad) { process in "\(process.upstream ?? "-") always" }

        #expect(try await pipes[2].with(state: .start).taLoad("x") == "start(start) always")
        #expect(try await pipes[2].taLoad.with(state: .success)("x") == "- done(success) always")
        #expect(try await pipes[0].taLoad("x") == "start(nil) done(nil) always")
        let report = await pipes[1].taLoad.with(state: .error).report("x")
        #expect(report.value == "- done(error) always")
        #expect(report.trace.state == .error)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.stateMismatch(handler: .start, call: .error)), .ran, .ran,
            ])
    }

    // MARK: The process

    @Test("Side data set before an await is read after it, by the same and later handlers")
    func sideDataAcrossAwaits() async throws {
        let pipes = try makeChain("p1", "p2")
        let server = TAServer()
        pipes[0].on(\.taLoad) { process in
            process.sideData[Keys.label] =
                "set before await, caller said "
                + (process.sideData[Keys.label] ?? "nothing")
            let data = try await server.fetch(process.arguments)
            process.sideData[Keys.counter] = data.count
            return process.sideData[Keys.label]
        }
        pipes[1].on(\.taLoad) { process in
            await Task.yield()
            let label = process.sideData[Keys.label] ?? "missing"
            let counter = process.sideData[Keys.counter] ?? -1
            return "\(process.upstream ?? "nil") | \(label) | \(counter)"
        }

        #expect(
            try await pipes[1].taLoad("abc")
                == "set before await, caller said nothing | set before await, caller said "
                + "nothing | 12")
        #expect(
            try await pipes[1].taLoad.with(Keys.label, "hi")("abcd")
                == "set before await, caller said hi | set before await, caller said hi | 13")
        let start = SideData(Keys.label, "whole")
        #expect(
            try await pipes[0].taLoad.with(sideData: start)("")
                == "set before await, caller said whole | set before await, caller said whole | 9"
        )
    }

    @Test("Arguments rewritten after an await reach the later handlers")
    func rewriteAcrossAwaits() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.taPair) { process in
            let (number, text) = process.arguments
            await Task.yield()
            process.rewrite(\.1, to: "\(text ?? "nil") rewritten")
            return "p1 saw \(number)"
        }
        pipes[1].on(\.taPair) { process in
            let seen = "\(process.arguments.0) \(process.arguments.1 ?? "nil")"
            await Task.yield()
            process.rewriteArguments(process.arguments.0 * 100, "all new")
            return "\(process.upstream ?? "-"), p2 saw \(seen)"
        }
        pipes[2].on(\.taPair) { process in
            "\(process.upstream ?? "-"), p3 saw \(process.arguments.0) "
                + "\(process.arguments.1 ?? "nil")"
        }
        #expect(
            try await pipes[0].taPair(3, "a")
                == "p1 saw 3, p2 saw 3 a rewritten, p3 saw 300 all new")
        #expect(
            try await pipes[0].taPair(4, nil)
                == "p1 saw 4, p2 saw 4 nil rewritten, p3 saw 400 all new")
    }

    @Test("stop() after an await ends the call; the report says who stopped it")
    func stopAfterAwait() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let thirdRuns = TACounter()
        pipes[0].on(\.taStep) { process in process.arguments }
        pipes[1].on(\.taStep) { process in
            await Task.yield()
            if process.arguments < 0 { process.stop() }
            #expect(process.isStopped == (process.arguments < 0))
            return (process.upstream ?? 0) * 2
        }
        pipes[2].on(\.taStep) { process in
            await thirdRuns.increment()
            return (process.upstream ?? 0) + 1
        }

        #expect(try await pipes[0].taStep(5) == 11)
        #expect(try await pipes[0].taStep(-5) == -10)
        let report = await pipes[0].taStep.report(-5)
        #expect(report.value == -10)
        #expect(report.stoppedBy == "p2")
        #expect(report.wasStopped)
        #expect(report.runCount == 2)
        #expect(report.error == nil)
        #expect(report.trace.steps.map(\.outcome) == [.ran, .stopped, .skipped(.stoppedEarlier)])
        #expect(await thirdRuns.value == 1)
    }

    @Test("The process names its action in async handlers")
    func actionName() async throws {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.taLoad) { process in
            await Task.yield()
            return process.actionName
        }
        #expect(try await pipe.taLoad("x") == "taLoad")
    }

    // MARK: Errors

    @Test("An error from the middle pipe reaches the caller; the report names the thrower")
    func errorFromTheMiddlePipe() async throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let runs = pipes.map { _ in TACounter() }
        pipes[0].on(\.taStep) { process in
            await runs[0].increment()
            return process.arguments
        }
        pipes[1].on(\.taStep) { process in
            await runs[1].increment()
            await Task.yield()
            if process.arguments > 10 { throw TAError(code: process.arguments) }
            return (process.upstream ?? 0) + 1
        }
        pipes[2].on(\.taStep) { process in
            await runs[2].increment()
            return (process.upstream ?? 0) * 2
        }

        await #expect(throws: TAError(code: 11)) { try await pipes[2].taStep(11) }
        do {
            _ = try await pipes[0].taStep(12)
            Issue.record("expected a throw")
        } catch {
            #expect(error as? TAError == TAError(code: 12), "the error is not wrapped")
        }
        #expect(await runs[0].value == 2)
        #expect(await runs[1].value == 2)
        #expect(await runs[2].value == 0)

        let report = await pipes[1].taStep.report(13)
        #expect(report.value == nil)
        #expect(report.error as? TAError == TAError(code: 13))
        #expect(report.thrownBy == "p2")
        #expect(report.isFailure)
        #expect(report.runCount == 2)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .threw("TAError(13)"), .skipped(.earlierHandlerThrew),
            ])
        #expect(await runs[2].value == 0)

        #expect(try await pipes[0].taStep(3) == 8)
        #expect(await runs[2].value == 1)
    }

    // MARK: Nested calls

    @Test("A nested async call from inside a handler gets its own process")
    func nestedCallGetsItsOwnProcess() async throws {
        let pipes = try makeChain("outer1", "outer2")
        let inner = ActionPipe(name: "inner")
        inner.on(\.taInner) { process in
            await Task.yield()
            let label = process.sideData[Keys.label] ?? "none"
            process.sideData[Keys.label] = "set by inner"
            return "inner(\(process.arguments), upstream \(show(process.upstream)), "
                + "state \(show(process.state)), label \(label))"
        }
        pipes[0].on(\.taPair) { process in
            process.sideData[Keys.label] = "outer"
            process.rewrite(\.1, to: "outer rewrite")
            let nested = try await inner.taInner(process.arguments.0 + 1)
            // The nested call changed nothing in this process.
            let label = process.sideData[Keys.label] ?? "none"
            return "\(nested ?? "nil"); outer label \(label); outer arg "
                + "\(process.arguments.1 ?? "nil")"
        }
        pipes[1].on(\.taPair) { process in
            "\(process.upstream ?? "nil"); outer2 label \(process.sideData[Keys.label] ?? "none")"
        }

        #expect(
            try await pipes[0].with(state: .start).taPair(1, "caller")
                == "inner(2, upstream nil, state nil, label none); outer label outer; "
                + "outer arg outer rewrite; outer2 label outer")
    }

    @Test("A handler re-calling the same action through its trigger nests a fresh process")
    func recursionThroughTheTrigger() async throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.taStep) { process in
            process.sideData[Keys.counter] = process.arguments
            guard process.arguments > 0 else { return 0 }
            let trigger = process.trigger
            await Task.yield()
            let below = try await trigger(process.arguments - 1) ?? -100
            // This level's side data is untouched by the deeper levels.
            return below + (process.sideData[Keys.counter] ?? -1000)
        }
        pipes[1].on(\.taStep) { process in
            (process.upstream ?? 0) + 1
        }
        // level n returns (level n-1) + n, and p2 adds 1 at every level.
        // f(0) = 0 + 1; f(n) = f(n-1) + n + 1.
        #expect(try await pipes[1].taStep(0) == 1)
        #expect(try await pipes[1].taStep(3) == 10)
    }

    // MARK: Trigger

    @Test("start → request → success: the start handler awaits work, then re-triggers")
    func triggerSuccessFlow() async throws {
        let pipes = try makeChain("requester", "onSuccess", "onError")
        let server = TAServer()
        let log = TALog()
        pipes[0].on(\.taLoad).state(.start).handle { process in
            await log.append("start \(process.arguments)")
            let trigger = process.trigger
            do {
                let data = try await server.fetch(process.arguments)
                return try await trigger.call(state: .success, data)
            } catch {
                return try await trigger.call(state: .error, "\(error)")
            }
        }
        pipes[1].on(\.taLoad).state(.success).handle { process in
            await log.append("success \(process.arguments)")
            return "shown: \(process.arguments)"
        }
        pipes[2].on(\.taLoad).state(.error).handle { process in
            await log.append("error \(process.arguments)")
            return "alert: \(process.arguments)"
        }

        #expect(try await pipes[2].with(state: .start).taLoad("report") == "shown: data for report")
        #expect(await log.all == ["start report", "success data for report"])

        #expect(try await pipes[1].with(state: .start).taLoad("bad") == "alert: TAError(500)")
        #expect(
            await log.all == [
                "start report", "success data for report", "start bad", "error TAError(500)",
            ])
        #expect(await server.requests == ["report", "bad"])

        let report = await pipes[0].taLoad.with(state: .start).report("again")
        #expect(report.value == "shown: data for again")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran,
                .skipped(.stateMismatch(handler: .success, call: .start)),
                .skipped(.stateMismatch(handler: .error, call: .start)),
            ])
    }

    @Test("start returns at once; a task re-triggers .success later and the chain answers")
    func triggerFromAnotherTask() async throws {
        let pipes = try makeChain("requester", "view")
        let server = TAServer()
        let shown = TALog()
        let done = TAGate()
        pipes[0].on(\.taLoad).state(.start).handle { process in
            let trigger = process.trigger
            let request = process.arguments
            Task {
                let data = try await server.fetch(request)
                let result = try await trigger.call(state: .success, data)
                await shown.append("trigger returned \(result ?? "nil")")
                await done.open()
            }
            return "loading"
        }
        pipes[1].on(\.taLoad).state(.success).handle { process in
            await shown.append("view shows \(process.arguments)")
            return "ok"
        }

        #expect(try await pipes[1].with(state: .start).taLoad("page") == "loading")
        await done.wait()
        #expect(await shown.all == ["view shows data for page", "trigger returned ok"])
    }

    @Test("A pending trigger does not keep the chain alive: later it does nothing")
    func pendingTriggerDoesNotKeepTheChain() async throws {
        let release = TAGate()
        let finished = TAGate()
        let successRuns = TACounter()
        let outcome = TALog()
        weak var weakPipe: ActionPipe?
        weak var weakCaptured: Tracked?
        do {
            let pipes = try makeChain("requester", "view")
            weakPipe = pipes[0]
            let captured = Tracked("captured by the success handler")
            weakCaptured = captured
            pipes[0].on(\.taLoad).state(.start).handle { process in
                let trigger = process.trigger
                Task {
                    await release.wait()
                    await outcome.append("alive \(trigger.isAlive)")
                    let result = try await trigger.call(state: .success, "late")
                    await outcome.append("result \(result ?? "nil")")
                    await finished.open()
                }
                return "loading"
            }
            pipes[1].on(\.taLoad).state(.success).handle { _ in
                await successRuns.increment()
                return captured.name
            }
            #expect(try await pipes[1].with(state: .start).taLoad("page") == "loading")
        }
        #expect(weakPipe == nil)
        #expect(weakCaptured == nil, "the pending trigger must not keep the handlers alive")
        await release.open()
        await finished.wait()
        #expect(await outcome.all == ["alive false", "result nil"])
        #expect(await successRuns.value == 0)
    }

    // MARK: Targets and responders

    @Test("handle(owner:method:) registers an async method; a responder registers several")
    func asyncMethodsAndResponders() async throws {
        let pipes = try makeChain("p1", "p2")
        weak var weakServer: TitleServer?
        do {
            let server = TitleServer()
            weakServer = server
            pipes[0].on(\.taInner).handle(owner: server, method: TitleServer.title)
            let tokens = pipes[1].register(server)
            #expect(tokens.count == 2)

            #expect(try await pipes[1].taInner(7) == "Document 7")
            #expect(try await pipes[0].taResponder(8) == "Document 8")
            await #expect(throws: TAError(code: -1)) { try await pipes[0].taResponder(-1) }
            #expect(try await pipes[0].with(state: .process).taStep(5) == 15)
            #expect(try await pipes[0].with(state: .start).taStep(5) == nil)
            #expect(server.fetches.value == 4)
        }
        #expect(weakServer == nil, "targets are held weakly by default")
        let report = await pipes[0].taResponder.report(9)
        #expect(report.value == nil)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.notRegistered), .skipped(.targetReleased),
            ])
    }
}
