import ActionPipe
import ActionPipeTesting
import Foundation
import Testing

@Suite("Tracing: reports and traces")
struct TracingTests {
    @Test("Example 4 traces, step by step")
    func example4Traces() throws {
        let pipes = try makeChain("pipe1", "pipe2", "pipe3")
        pipes[0].on(\.tSomeFunc) { process in
            let (_, object) = process.arguments
            if object == nil { return nil }
            return object is [Any] ? Date(timeIntervalSince1970: 0) : Marker("object")
        }
        pipes[1].on(\.tSomeFunc).upstream(is: Date.self).handle { _ in nil }
        pipes[2].on(\.tSomeFunc).upstreamNotNil().handle { _ in nil }

        let nilObject = pipes[2].tSomeFunc.report(0, nil)
        #expect(nilObject.trace.action == "tSomeFunc")
        #expect(nilObject.trace.state == nil)
        #expect(nilObject.trace.pipeNames == ["pipe1", "pipe2", "pipe3"])
        #expect(nilObject.trace.summary == "pipe1 ran, pipe2 skipped, pipe3 skipped")
        #expect(
            nilObject.trace.description
                == "tSomeFunc(0, nil): pipe1 ran → pipe2 skipped (upstream is not Date) → "
                + "pipe3 skipped (upstream is nil)")

        let array = pipes[1].tSomeFunc.report(0, [1, 2])
        #expect(
            array.trace.description
                == "tSomeFunc(0, Optional([1, 2])): pipe1 ran → pipe2 ran → pipe3 skipped (upstream is nil)"
        )
        #expect(array.trace.ran == ["pipe1", "pipe2"])

        let dictionary = pipes[0].tSomeFunc.report(0, ["a": "aa"])
        #expect(
            dictionary.trace.description
                == "tSomeFunc(0, Optional([\"a\": \"aa\"])): pipe1 ran → pipe2 skipped (upstream is not Date) → pipe3 ran"
        )
        #expect(dictionary.trace.ran == ["pipe1", "pipe3"])
        #expect(dictionary.runCount == 2)
    }

    @Test("Example 5 traces: the state mismatch reason names both states")
    func example5Traces() throws {
        let pipes = try makeChain("pipe1", "pipe2")
        pipes[0].on(\.tSomeFunc).state(1).handle { _ in nil }
        pipes[1].on(\.tSomeFunc).state(10).handle { _ in nil }

        let one = pipes[0].tSomeFunc.with(state: 1).report(0, nil)
        #expect(one.trace.state == 1)
        #expect(
            one.trace.steps.map(\.outcome) == [
                .ran, .skipped(.stateMismatch(handler: 10, call: 1)),
            ])
        #expect(
            one.trace.description
                == "tSomeFunc(0, nil) start: pipe1 ran → pipe2 skipped (state 10 (process|error) does not "
                + "meet call state start)")
        let reason = SkipReason.stateMismatch(handler: 10, call: 1).description
        #expect(reason.contains(ActionState(10).description))
        #expect(reason.contains(ActionState(1).description))

        let ten = pipes[0].tSomeFunc.with(state: 10).report(0, nil)
        #expect(
            ten.trace.steps.map(\.outcome) == [
                .skipped(.stateMismatch(handler: 1, call: 10)), .ran,
            ])

        let both = pipes[0].tSomeFunc.with(state: [1, 10]).report(0, nil)
        #expect(both.trace.ran == ["pipe1", "pipe2"])
        #expect(both.trace.state == 11)

        let plain = pipes[0].tSomeFunc.report(0, nil)
        #expect(plain.trace.ran == ["pipe1", "pipe2"])
        #expect(plain.trace.description == "tSomeFunc(0, nil): pipe1 ran → pipe2 ran")
    }

    @Test("PipeCall options reach reports too")
    func pipeCallReports() throws {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tLoad).state(.success).handle { process in process.sideData[Keys.label] }
        let report = pipe.with(state: .success).with(Keys.label, "side").tLoad.report("x")
        #expect(report.value == "side")
        #expect(report.trace.state == .success)
        #expect(report.trace.description == "tLoad(\"x\") success: p ran")
    }

    @Test("report.value equals the plain call's value")
    func reportValueEqualsPlainValue() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPing) { process in process.arguments * 2 }
        pipes[1].on(\.tPing).when("even") { process in process.arguments % 2 == 0 }
            .handle { process in (process.upstream ?? 0) + 1 }
        pipes[2].on(\.tPing).state(.error).handle { _ in -1 }
        for argument in 0..<6 {
            #expect(pipes[2].tPing.report(argument).value == pipes[2].tPing(argument))
            for state: ActionState in [.start, .error] {
                #expect(
                    pipes[0].tPing.with(state: state).report(argument).value
                        == pipes[0].with(state: state).tPing(argument))
            }
        }
    }

    @Test("A report of a call that stopped")
    func stoppedTrace() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPing) { process in
            process.stop()
            return 1
        }
        pipes[2].on(\.tPing) { _ in 3 }
        let report = pipes[1].tPing.report(0)
        #expect(
            report.trace.description
                == "tPing(0): p1 ran and stopped the call → p2 skipped (not registered) → "
                + "p3 skipped (call stopped earlier)")
        #expect(report.stoppedBy == "p1")
        #expect(report.trace.summary == "p1 stopped, p2 skipped, p3 skipped")
        #expect(report.trace.ran == ["p1"])
    }

    @Test("A released target is traced as targetReleased")
    func targetReleasedTrace() {
        let pipe = ActionPipe(name: "p")
        do {
            let robot = TestRobot("r", log: Log())
            pipe.on(\.tPing).handle(owner: robot, method: TestRobot.ping)
        }
        let report = pipe.tPing.report(1)
        #expect(report.trace.description == "tPing(1): p skipped (target released)")
        #expect(report.value == nil)
        #expect(report.runCount == 0)
    }

    @Test("Condition failures are traced with readable reasons")
    func conditionTraces() throws {
        let pipes = try makeChain("p1", "p2", "p3", "p4")
        pipes[0].on(\.tSomeFunc).argument(\.1, is: String.self).handle { _ in nil }
        pipes[1].on(\.tSomeFunc).argumentNotNil(\.1).handle { _ in nil }
        pipes[2].on(\.tSomeFunc).when("big number") { process in process.arguments.0 > 100 }
            .handle { _ in nil }
        pipes[3].on(\.tSomeFunc).upstream(is: Int.self).handle { _ in nil }
        let report = pipes[0].tSomeFunc.report(1, nil)
        #expect(
            report.trace.description
                == "tSomeFunc(1, nil): p1 skipped (argument 1 is not String) → p2 skipped (argument 1 is nil) → "
                + "p3 skipped (condition 'big number' failed) → p4 skipped (upstream is not Int)")
    }

    @Test("Outcome and reason descriptions")
    func descriptions() {
        #expect(ActionTrace.Outcome.ran.description == "ran")
        #expect(ActionTrace.Outcome.stopped.description == "ran and stopped the call")
        #expect(
            ActionTrace.Outcome.skipped(.notRegistered).description == "skipped (not registered)")
        #expect(SkipReason.notRegistered.description == "not registered")
        #expect(
            SkipReason.stateMismatch(handler: .success, call: .start).description
                == "state success does not meet call state start")
        #expect(SkipReason.upstreamNotOfType("Date").description == "upstream is not Date")
        #expect(SkipReason.upstreamNil.description == "upstream is nil")
        #expect(
            SkipReason.argumentNotOfType(argument: "1", expected: "Array<Int>").description
                == "argument 1 is not Array<Int>")
        #expect(SkipReason.argumentNil(argument: "0").description == "argument 0 is nil")
        #expect(SkipReason.conditionFailed("even").description == "condition 'even' failed")
        #expect(SkipReason.targetReleased.description == "target released")
        #expect(SkipReason.stoppedEarlier.description == "call stopped earlier")
    }

    @Test("Steps describe themselves as 'pipe outcome'")
    func stepDescriptions() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tPing) { _ in 1 }
        let steps = pipes[0].tPing.report(0).trace.steps
        #expect(steps.map(\.description) == ["p1 ran", "p2 skipped (not registered)"])
        #expect(steps[0] == steps[0])
        #expect(steps[0] != steps[1])
    }

    @Test("The trace follows the chain as it is at the time of the call")
    func traceFollowsTheCurrentChain() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[1].on(\.tPing) { _ in 2 }
        #expect(
            pipes[0].tPing.report(0).trace.description
                == "tPing(0): p1 skipped (not registered) → p2 ran")
        let p3 = ActionPipe(name: "p3")
        try pipes[1].append(p3)
        #expect(
            pipes[0].tPing.report(0).trace.description
                == "tPing(0): p1 skipped (not registered) → p2 ran → p3 skipped (not registered)")
        #expect(pipes[1].removeFromChain())
        #expect(
            p3.tPing.report(0).trace.description
                == "tPing(0): p1 skipped (not registered) → p3 skipped (not registered)")
        #expect(pipes[1].tPing.report(0).trace.description == "tPing(0): p2 ran")
    }

    @Test("A report's trace has one step per pipe even for long chains")
    func longChainTrace() throws {
        let pipes = (0..<10).map { ActionPipe(name: "n\($0)") }
        for pipe in pipes.dropFirst() { try pipes[0].append(pipe) }
        for (index, pipe) in pipes.enumerated() where index % 3 == 0 {
            pipe.on(\.tPing) { _ in index }
        }
        let report = pipes[5].tPing.report(0)
        #expect(report.trace.steps.count == 10)
        #expect(report.trace.ran == ["n0", "n3", "n6", "n9"])
        #expect(report.trace.skippedPipes == ["n1", "n2", "n4", "n5", "n7", "n8"])
        #expect(report.value == 9)
        #expect(report.runCount == 4)
    }

    @Test("Traces of the calling and process examples")
    func processExampleTraces() throws {
        let pipes = try makeChain("pipe1", "pipe2", "pipe3")
        for pipe in pipes {
            pipe.on(\.tSomeFunc2) { _ in () }
        }
        pipes[1].on(\.tSomeFunc3) { _ in () }
        #expect(
            pipes[2].tSomeFunc2.report(Size(width: 10, height: 20), "hello").trace.description
                == "tSomeFunc2(Size(width: 10.0, height: 20.0), \"hello\"): pipe1 ran → pipe2 ran → pipe3 ran"
        )
        #expect(
            pipes[0].tSomeFunc3.report().trace.description
                == "tSomeFunc3(): pipe1 skipped (not registered) → pipe2 ran → "
                + "pipe3 skipped (not registered)")

        // Side data, rewriting and upstream: both handlers run, in order.
        let pair = try makeChain("pipe1", "pipe2")
        pair[0].on(\.tSomeFunc) { process in
            process.sideData[Keys.label] = "Robot No.999 birth day"
            process.rewrite(\.1, to: "rewritten")
            return [1, 2, 3]
        }
        pair[1].on(\.tSomeFunc) { process in process.upstream }
        let report = pair[1].tSomeFunc.report(999, nil)
        #expect(report.trace.description == "tSomeFunc(999, nil): pipe1 ran → pipe2 ran")
        #expect(report.value as? [Int] == [1, 2, 3])
        #expect(report.runCount == 2)
        #expect(!report.wasStopped)
    }

    @Test("a trace names the call's arguments: strings quoted, long ones cut to 40 characters")
    func argumentsInTrace() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tSomeFunc2).handle { _ in () }
        let long = String(repeating: "x", count: 100)
        let trace = pipe.tSomeFunc2.report(Size(width: 1, height: 2), long).trace
        #expect(trace.arguments.count == 2)
        #expect(trace.arguments[0] == String(describing: Size(width: 1, height: 2)))
        #expect(trace.arguments[1].count == ActionTrace.argumentLength)
        #expect(trace.arguments[1] == "\"" + String(repeating: "x", count: 38) + "…")
        #expect(trace.description.hasPrefix("tSomeFunc2(" + trace.arguments[0] + ", \"xxx"))
        // Eleven calls that differ only in their arguments have eleven different lines.
        let ping = ActionPipe(name: "ping")
        ping.on(\.tPing).handle { process in process.arguments }
        let lines = Set((0..<11).map { ping.tPing.report($0).trace.description })
        #expect(lines.count == 11)
        #expect(lines.contains("tPing(10): ping ran"))
        // An action without arguments shows empty parentheses.
        #expect(
            pipe.tSomeFunc3.report().trace.description == "tSomeFunc3(): p skipped (not registered)"
        )
    }
}
