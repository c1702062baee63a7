import ActionPipe
import Testing

/// A target whose method throws; counts its calls.
private final class Checker: Sendable {
    let name: String
    let calls = Counter()

    init(_ name: String) { self.name = name }

    func check(_ value: Int) throws(TTFailure) -> Int {
        calls.increment()
        guard value <= 10 else { throw .tooLarge(value) }
        return value * 2
    }
}

/// A responder that registers throwing methods through `ActionRegistrar.add(_:method:)`.
private final class Parser: ActionResponder {
    let parses = Counter()
    let steps = Counter()

    func parse(_ text: String) throws(TTFailure) -> Int? {
        parses.increment()
        guard let number = Int(text) else { throw .notANumber(text) }
        return number
    }

    func step(_ value: Int) throws(TTFailure) -> Int? {
        steps.increment()
        guard value <= 10 else { throw .tooLarge(value) }
        return value + 100
    }

    static func registerActions(in registrar: inout ActionRegistrar<Parser>) {
        registrar.add(\.ttResponder, method: Parser.parse)
        registrar.add(\.ttStep, where: { $0.state(.start) }, method: Parser.step)
    }
}

/// Registers on `pipe` a `ttStep` handler that counts its runs, throws `.tooLarge` for
/// arguments above `limit`, and otherwise adds `amount` to the upstream value.
private func registerStep(
    _ pipe: ActionPipe, counter: Counter, amount: Int, limit: Int = .max
) {
    pipe.on(\.ttStep).handle { (process) throws(TTFailure) in
        counter.increment()
        guard process.arguments <= limit else { throw .tooLarge(process.arguments) }
        return (process.upstream ?? 0) + amount
    }
}

@Suite("Throwing actions: typed errors end the call")
struct ThrowingActionTests {
    // MARK: The error

    @Test("The error reaches the caller unchanged, and catch binds the concrete type")
    func errorReachesTheCallerTyped() throws {
        let pipe = ActionPipe(name: "parser")
        pipe.on(\.ttParse).handle { (process) throws(TTFailure) in
            guard let number = Int(process.arguments) else {
                throw .notANumber(process.arguments)
            }
            return number
        }

        // A function typed `throws(TTFailure)` compiles only if the call throws exactly that.
        func parse(_ text: String) throws(TTFailure) -> Int? { try pipe.ttParse(text) }

        #expect(try parse("42") == 42)
        do throws(TTFailure) {
            let value = try parse("forty-two")
            Issue.record("expected a throw, got \(String(describing: value))")
        } catch {
            let failure: TTFailure = error  // no cast: the caught error is a TTFailure
            #expect(failure == .notANumber("forty-two"))
        }
        #expect(throws: TTFailure.notANumber("x")) { try pipe.ttParse("x") }
    }

    @Test("A call with no handler returns nil and does not throw")
    func noHandlerReturnsNil() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.ttParse).handle { (_) throws(TTFailure) in throw .rejected("other") }
        #expect(try pipes[1].ttStep(1) == nil)
        let report = pipes[1].ttStep.report(1)
        #expect(report.value == nil)
        #expect(report.error == nil)
        #expect(report.runCount == 0)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.notRegistered), .skipped(.notRegistered),
            ])
    }

    @Test("A throw ends the call: earlier handlers ran, no later handler runs")
    func throwEndsTheCall() throws {
        let pipes = try makeChain("p1", "p2", "p3", "p4")
        let counters = pipes.map { _ in Counter() }
        registerStep(pipes[0], counter: counters[0], amount: 1)
        registerStep(pipes[1], counter: counters[1], amount: 10, limit: 10)
        registerStep(pipes[2], counter: counters[2], amount: 100)
        registerStep(pipes[3], counter: counters[3], amount: 1000)

        #expect(throws: TTFailure.tooLarge(11)) { try pipes[3].ttStep(11) }
        #expect(counters.map(\.value) == [1, 1, 0, 0])

        // The chain is not left in a failed state: the next call runs every handler.
        #expect(try pipes[2].ttStep(10) == 1111)
        #expect(counters.map(\.value) == [2, 2, 1, 1])

        // The first handler throwing stops everything after it.
        let first = ActionPipe(name: "first")
        registerStep(first, counter: counters[0], amount: 0, limit: 0)
        try first.append(pipes[0])
        #expect(throws: TTFailure.tooLarge(5)) { try pipes[1].ttStep(5) }
        #expect(counters.map(\.value) == [3, 2, 1, 1])
    }

    @Test("The report names the thrower, records .threw and skips the rest as earlierHandlerThrew")
    func reportOfAThrow() throws {
        let pipes = try makeChain("p1", "p2", "quiet", "p4", "p5")
        let counters = pipes.map { _ in Counter() }
        registerStep(pipes[0], counter: counters[0], amount: 1)
        registerStep(pipes[1], counter: counters[1], amount: 10, limit: 10)
        registerStep(pipes[3], counter: counters[3], amount: 100)
        registerStep(pipes[4], counter: counters[4], amount: 1000)

        let report = pipes[0].ttStep.report(11)
        #expect(report.value == nil, "a failed call has no value, not the upstream one")
        #expect(report.error as? TTFailure == .tooLarge(11))
        #expect(report.thrownBy == "p2")
        #expect(report.isFailure)
        #expect(!report.wasStopped)
        #expect(report.stoppedBy == nil)
        #expect(report.runCount == 2, "the thrower counts as a handler that ran")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .threw("tooLarge(11)"), .skipped(.notRegistered),
                .skipped(.earlierHandlerThrew), .skipped(.earlierHandlerThrew),
            ])
        #expect(report.trace.ran == ["p1", "p2"])
        #expect(
            report.trace.description
                == "ttStep(11): p1 ran → p2 threw tooLarge(11) → quiet skipped (not registered) → "
                + "p4 skipped (an earlier handler threw) → p5 skipped (an earlier handler threw)")
        #expect(counters.map(\.value) == [1, 1, 0, 0, 0])

        let success = pipes[4].ttStep.report(3)
        #expect(success.value == 1111)
        #expect(success.error == nil)
        #expect(success.thrownBy == nil)
        #expect(!success.isFailure)
        #expect(success.runCount == 4)
        #expect(success.trace.ran == ["p1", "p2", "p4", "p5"])
    }

    @Test("The last handler throwing discards the upstream value")
    func lastHandlerThrowing() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.ttParse).handle { _ in 7 }
        pipes[1].on(\.ttParse).handle { (process) throws(TTFailure) in
            throw .rejected("upstream was \(process.upstream ?? -1)")
        }
        #expect(throws: TTFailure.rejected("upstream was 7")) { try pipes[0].ttParse("x") }
        let report = pipes[0].ttParse.report("x")
        #expect(report.value == nil)
        #expect(report.thrownBy == "p2")
        #expect(report.runCount == 2)
        #expect(
            report.trace.steps.map(\.outcome) == [.ran, .threw("rejected(\"upstream was 7\")")])
    }

    // MARK: Conditions, state, stop

    @Test("state: a throwing handler whose state does not meet the call's is skipped")
    func stateSelectsTheThrower() throws {
        let pipes = try makeChain("p1", "p2")
        let ran = Counter()
        pipes[0].on(\.ttStep).state(.start).handle { (process) throws(TTFailure) in
            ran.increment()
            throw .tooLarge(process.arguments)
        }
        pipes[1].on(\.ttStep).state([.success, .error]).handle { process in
            process.arguments + (process.upstream ?? 0)
        }

        #expect(try pipes[0].with(state: .success).ttStep(5) == 5)
        #expect(ran.value == 0)
        let skipped = pipes[0].ttStep.with(state: .error).report(5)
        #expect(skipped.value == 5)
        #expect(
            skipped.trace.steps.map(\.outcome) == [
                .skipped(.stateMismatch(handler: .start, call: .error)), .ran,
            ])
        #expect(ran.value == 0)

        #expect(throws: TTFailure.tooLarge(6)) { try pipes[1].with(state: .start).ttStep(6) }
        #expect(ran.value == 1)
        // A plain call runs handlers of every state, so the thrower runs first.
        #expect(throws: TTFailure.tooLarge(7)) { try pipes[1].ttStep(7) }
        #expect(ran.value == 2)
    }

    @Test("upstream(is:) and upstreamNotNil decide whether a throwing handler runs")
    func upstreamConditions() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        pipes[0].on(\.ttAnything).handle { process in
            switch process.arguments {
            case 0: nil
            case 1: "text"
            default: process.arguments
            }
        }
        pipes[1].on(\.ttAnything).upstream(is: Int.self).handle { (process) throws(TTFailure) in
            log.append("p2 \(show(process.upstream))")
            throw .tooLarge(process.upstream as? Int ?? -1)
        }
        pipes[2].on(\.ttAnything).upstreamNotNil().handle { (process) throws(TTFailure) in
            log.append("p3 \(show(process.upstream))")
            throw .rejected("p3")
        }

        let none = pipes[0].ttAnything.report(0)
        #expect(none.error == nil)
        #expect(none.value == nil)
        #expect(
            none.trace.steps.map(\.outcome) == [
                .ran, .skipped(.upstreamNotOfType("Int")), .skipped(.upstreamNil),
            ])

        let text = pipes[0].ttAnything.report(1)
        #expect(text.error as? TTFailure == .rejected("p3"))
        #expect(text.thrownBy == "p3")
        #expect(
            text.trace.steps.map(\.outcome) == [
                .ran, .skipped(.upstreamNotOfType("Int")), .threw("rejected(\"p3\")"),
            ])

        let number = pipes[0].ttAnything.report(42)
        #expect(number.error as? TTFailure == .tooLarge(42))
        #expect(number.thrownBy == "p2")
        #expect(
            number.trace.steps.map(\.outcome) == [
                .ran, .threw("tooLarge(42)"), .skipped(.earlierHandlerThrew),
            ])
        #expect(log.all == ["p3 text", "p2 42"])
    }

    @Test("argumentNotNil, argument(is:) and when() guard a throwing handler")
    func argumentConditions() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.ttPair).argumentNotNil(\.1).handle { (process) throws(TTFailure) in
            throw .rejected("p1 got \(process.arguments.1 ?? "nil")")
        }
        pipes[1].on(\.ttPair).argument(\.1, is: String.self)
            .when("first is positive") { $0.arguments.0 > 0 }
            .handle { (process) throws(TTFailure) in throw .tooLarge(process.arguments.0) }
        pipes[2].on(\.ttPair).handle { process in "p3 \(process.arguments.0)" }

        let skipped = pipes[2].ttPair.report(0, nil)
        #expect(skipped.value == "p3 0")
        #expect(
            skipped.trace.steps.map(\.outcome) == [
                .skipped(.argumentNil(argument: "1")),
                .skipped(.argumentNotOfType(argument: "1", expected: "String")),
                .ran,
            ])

        #expect(throws: TTFailure.rejected("p1 got a")) { try pipes[2].ttPair(0, "a") }
        pipes[0].removeHandler(for: \.ttPair)
        #expect(try pipes[2].ttPair(0, "a") == "p3 0")
        #expect(throws: TTFailure.tooLarge(3)) { try pipes[2].ttPair(3, "a") }
        #expect(
            pipes[2].ttPair.report(-3, "a").trace.steps.map(\.outcome) == [
                .skipped(.notRegistered),
                .skipped(.conditionFailed("first is positive")),
                .ran,
            ])
    }

    @Test("stop() before a thrower: the thrower never runs and the call succeeds")
    func stopBeforeTheThrower() throws {
        let pipes = try makeChain("p1", "p2")
        let thrower = Counter()
        pipes[0].on(\.ttStep).handle { process in
            if process.arguments == 0 { process.stop() }
            return process.arguments
        }
        pipes[1].on(\.ttStep).handle { (process) throws(TTFailure) in
            thrower.increment()
            throw .tooLarge(process.arguments)
        }

        #expect(try pipes[1].ttStep(0) == 0)
        #expect(thrower.value == 0)
        let report = pipes[1].ttStep.report(0)
        #expect(report.stoppedBy == "p1")
        #expect(report.error == nil)
        #expect(report.thrownBy == nil)
        #expect(report.trace.steps.map(\.outcome) == [.stopped, .skipped(.stoppedEarlier)])

        #expect(throws: TTFailure.tooLarge(1)) { try pipes[1].ttStep(1) }
        #expect(thrower.value == 1)
    }

    @Test("A handler that stops and then throws: the throw is what the call reports")
    func stopThenThrow() throws {
        let pipes = try makeChain("p1", "p2")
        let later = Counter()
        pipes[0].on(\.ttStep).handle { (process) throws(TTFailure) in
            process.stop()
            throw .rejected("after stop")
        }
        registerStep(pipes[1], counter: later, amount: 1)
        let report = pipes[0].ttStep.report(1)
        #expect(report.error as? TTFailure == .rejected("after stop"))
        #expect(report.thrownBy == "p1")
        #expect(report.value == nil)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .threw("rejected(\"after stop\")"), .skipped(.earlierHandlerThrew),
            ])
        #expect(later.value == 0)
    }

    // MARK: The process

    @Test("Upstream, side data and rewritten arguments reach a later throwing handler")
    func processFlowsIntoTheThrower() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.ttPair).handle { process in
            let caller = process.sideData[Keys.label] ?? "none"
            process.sideData[Keys.label] = "p1 after \(caller)"
            process.sideData[Keys.counter] = process.arguments.0 * 2
            process.rewrite(\.1, to: "rewritten")
            return "p1"
        }
        pipes[1].on(\.ttPair).handle { (process) throws(TTFailure) in
            let label = process.sideData[Keys.label] ?? "missing"
            let line =
                "\(process.upstream ?? "nil") \(process.arguments.0) "
                + "\(process.arguments.1 ?? "nil") \(label) \(process.sideData[Keys.counter] ?? -1)"
            guard process.arguments.0 >= 0 else { throw .rejected(line) }
            return line
        }

        #expect(
            try pipes[0].ttPair.with(Keys.label, "caller")(4, "original")
                == "p1 4 rewritten p1 after caller 8")
        #expect(try pipes[0].ttPair(4, nil) == "p1 4 rewritten p1 after none 8")
        #expect(throws: TTFailure.rejected("p1 -1 rewritten p1 after none -2")) {
            try pipes[1].ttPair(-1, "original")
        }
    }

    @Test("A nested throwing call caught inside a handler does not end the outer call")
    func nestedErrorCaughtInsideAHandler() throws {
        let pipes = try makeChain("outer1", "outer2")
        let inner = ActionPipe(name: "inner")
        inner.on(\.ttParse).handle { (process) throws(TTFailure) in
            guard let number = Int(process.arguments) else {
                throw .notANumber(process.arguments)
            }
            return number
        }
        pipes[0].on(\.ttStep).handle { (process) throws(TTFailure) in
            do throws(TTFailure) {
                return try inner.ttParse("not \(process.arguments)")
            } catch {
                return error == .notANumber("not \(process.arguments)") ? -1 : -2
            }
        }
        pipes[1].on(\.ttStep).handle { process in (process.upstream ?? 0) * 10 }

        let report = pipes[0].ttStep.report(3)
        #expect(report.value == -10)
        #expect(report.error == nil)
        #expect(report.trace.ran == ["outer1", "outer2"])
        // Let the inner error through instead: it ends the outer call, thrown by outer1.
        pipes[0].on(\.ttStep).handle { (process) throws(TTFailure) in
            try inner.ttParse("x\(process.arguments)")
        }
        let failed = pipes[0].ttStep.report(3)
        #expect(failed.error as? TTFailure == .notANumber("x3"))
        #expect(failed.thrownBy == "outer1")
        #expect(
            failed.trace.steps.map(\.outcome) == [
                .threw("notANumber(\"x3\")"), .skipped(.earlierHandlerThrew),
            ])
    }

    // MARK: Untyped throws

    @Test("any Error as Failure: errors of different types reach the caller as thrown")
    func untypedFailure() throws {
        let pipes = try makeChain("p1", "p2")
        let secondRan = Counter()
        pipes[0].on(\.ttUntyped).handle { process in
            switch process.arguments {
            case 1: throw TAOtherError(reason: "one")
            case 2: throw TTFailure.tooLarge(2)
            default: return process.arguments
            }
        }
        pipes[1].on(\.ttUntyped).handle { process in
            secondRan.increment()
            return (process.upstream ?? 0) + 1
        }

        #expect(try pipes[1].ttUntyped(5) == 6)
        do {
            _ = try pipes[1].ttUntyped(1)
            Issue.record("expected a throw")
        } catch {
            #expect(error as? TAOtherError == TAOtherError(reason: "one"))
        }
        #expect(throws: TTFailure.tooLarge(2)) { try pipes[1].ttUntyped(2) }
        #expect(secondRan.value == 1)

        let report = pipes[0].ttUntyped.report(1)
        #expect(report.error as? TAOtherError == TAOtherError(reason: "one"))
        #expect(report.thrownBy == "p1")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .threw("TAOtherError(reason: \"one\")"), .skipped(.earlierHandlerThrew),
            ])
        #expect(secondRan.value == 1)
    }

    // MARK: Targets

    @Test("A throwing handler with a target; once the weak target is gone it is skipped")
    func weakTargetOfAThrowingHandler() throws {
        let pipes = try makeChain("p1", "p2")
        weak var weakChecker: Checker?
        let calls: Counter
        do {
            let checker = Checker("checker")
            weakChecker = checker
            calls = checker.calls
            pipes[0].on(\.ttStep).handle(owner: checker) { (checker, process) throws(TTFailure) in
                try checker.check(process.arguments)
            }
            pipes[1].on(\.ttStep).handle { process in (process.upstream ?? 0) + 1 }

            #expect(try pipes[1].ttStep(5) == 11)
            #expect(throws: TTFailure.tooLarge(11)) { try pipes[1].ttStep(11) }
            #expect(calls.value == 2)
        }
        #expect(weakChecker == nil, "the pipe must hold the target weakly")

        // The thrower is gone with its target: the call no longer throws.
        #expect(try pipes[1].ttStep(11) == 1)
        let report = pipes[0].ttStep.report(11)
        #expect(report.error == nil)
        #expect(report.trace.steps.map(\.outcome) == [.skipped(.targetReleased), .ran])
        #expect(calls.value == 2)
    }

    @Test("A strongly held throwing target keeps throwing after the caller drops it")
    func strongTargetOfAThrowingHandler() {
        let pipe = ActionPipe(name: "p")
        weak var weakChecker: Checker?
        do {
            let checker = Checker("strong")
            weakChecker = checker
            pipe.on(\.ttStep).handle(owner: checker, retention: .strong) {
                (checker, process) throws(TTFailure) in
                try checker.check(process.arguments)
            }
        }
        #expect(weakChecker != nil)
        #expect(throws: TTFailure.tooLarge(12)) { try pipe.ttStep(12) }
        #expect(weakChecker?.calls.value == 1)
        pipe.removeHandler(for: \.ttStep)
        #expect(weakChecker == nil)
    }

    @Test("ActionRegistrar.add(_:method:) registers a throwing method of a responder")
    func responderWithThrowingMethods() throws {
        let pipes = try makeChain("p1", "p2")
        let after = Counter()
        registerStep(pipes[1], counter: after, amount: 1)
        weak var weakParser: Parser?
        let parses: Counter
        let steps: Counter
        do {
            let parser = Parser()
            weakParser = parser
            parses = parser.parses
            steps = parser.steps
            let tokens = pipes[0].register(parser)
            #expect(tokens.count == 2)
            let allActive = tokens.allSatisfy { $0.isActive }
            #expect(allActive)

            #expect(try pipes[1].ttResponder("12") == 12)
            #expect(throws: TTFailure.notANumber("twelve")) { try pipes[1].ttResponder("twelve") }
            #expect(parses.value == 2)

            // `where: { $0.state(.start) }` applies to the throwing method too.
            #expect(try pipes[1].with(state: .start).ttStep(3) == 104)
            #expect(throws: TTFailure.tooLarge(11)) { try pipes[1].with(state: .start).ttStep(11) }
            #expect(try pipes[1].with(state: .success).ttStep(11) == 1)
            #expect(steps.value == 2)
            #expect(after.value == 2)
            let report = pipes[0].ttStep.with(state: .start).report(11)
            #expect(report.thrownBy == "p1")
            #expect(
                report.trace.steps.map(\.outcome) == [
                    .threw("tooLarge(11)"), .skipped(.earlierHandlerThrew),
                ])
        }
        #expect(weakParser == nil, "register holds the responder weakly by default")
        #expect(try pipes[1].ttResponder("twelve") == nil)
        #expect(parses.value == 2)
    }

    // MARK: Trigger

    @Test("The trigger of a throwing action rethrows the typed error")
    func triggerRethrows() throws {
        let pipes = try makeChain("p1", "p2")
        let saved = Box<ActionTrigger<ActionKind.Throwing<TTFailure>, String, Int>?>(nil)
        pipes[0].on(\.ttParse).state(.start).handle { process in
            saved.set(process.trigger)
            return nil
        }
        pipes[1].on(\.ttParse).state([.success, .error]).handle { (process) throws(TTFailure) in
            guard let number = Int(process.arguments) else {
                throw .notANumber(process.arguments)
            }
            return number * (process.state == .error ? -1 : 1)
        }

        #expect(try pipes[1].with(state: .start).ttParse("request") == nil)
        let trigger = try #require(saved.value)
        #expect(trigger.isAlive)
        #expect(try trigger.call(state: .success, "7") == 7)
        #expect(try trigger.call(state: .error, "7") == -7)
        do throws(TTFailure) {
            _ = try trigger.call(state: .success, "seven")
            Issue.record("expected a throw")
        } catch {
            let failure: TTFailure = error
            #expect(failure == .notANumber("seven"))
        }
        #expect(throws: TTFailure.notANumber("plain")) { try trigger("plain") }
    }

    @Test("A handler re-triggering with .success propagates the nested call's error")
    func nestedTriggerErrorPropagates() throws {
        let pipes = try makeChain("requester", "parser")
        pipes[0].on(\.ttLoad).state(.start).handle { (process) throws(TTFailure) in
            // The "request" finishes at once; hand its data to the chain with .success.
            try process.trigger.call(state: .success, "data:" + process.arguments)
        }
        pipes[1].on(\.ttLoad).state(.success).handle { (process) throws(TTFailure) in
            guard !process.arguments.hasSuffix("bad") else { throw .rejected(process.arguments) }
            return "parsed " + process.arguments
        }

        #expect(try pipes[1].with(state: .start).ttLoad("ok") == "parsed data:ok")
        let report = pipes[1].ttLoad.with(state: .start).report("bad")
        #expect(report.error as? TTFailure == .rejected("data:bad"))
        #expect(report.thrownBy == "requester", "the outer call sees its own handler throw")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .threw("rejected(\"data:bad\")"), .skipped(.earlierHandlerThrew),
            ])
    }

    @Test("A throwing trigger returns nil without throwing once the chain is gone")
    func throwingTriggerAfterTheChainIsGone() throws {
        let saved = Box<ActionTrigger<ActionKind.Throwing<TTFailure>, String, Int>?>(nil)
        let throwerRuns = Counter()
        do {
            let pipe = ActionPipe(name: "p")
            pipe.on(\.ttParse).handle { (process) throws(TTFailure) in
                throwerRuns.increment()
                if saved.value == nil {
                    saved.set(process.trigger)
                    return 1
                }
                throw .rejected(process.arguments)
            }
            #expect(try pipe.ttParse("first") == 1)
            let trigger = try #require(saved.value)
            #expect(throws: TTFailure.rejected("second")) { try trigger("second") }
            // The pipe lives until here: Swift may end a local's life at its last use.
            withExtendedLifetime(pipe) {}
        }
        let trigger = try #require(saved.value)
        #expect(!trigger.isAlive)
        #expect(try trigger.call(state: .success, "late") == nil)
        #expect(throwerRuns.value == 2)
    }
}
