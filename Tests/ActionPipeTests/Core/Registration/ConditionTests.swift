import ActionPipe
import Foundation
import Testing

@Suite("Conditions (SEMANTICS §1 Conditions, example 4)")
struct ConditionTests {
    /// Example 4: p1 returns nil / a Date / another object; p2 needs a Date upstream; p3 needs
    /// a non-nil upstream.
    private struct Example4 {
        let log = Log()
        let date = Date(timeIntervalSince1970: 1_624_447_288)
        let marker = Marker("p1's object")
        let pipe1 = ActionPipe(name: "pipe1")
        let pipe2 = ActionPipe(name: "pipe2")
        let pipe3 = ActionPipe(name: "pipe3")

        init() throws {
            let (log, date, marker) = (log, date, marker)
            pipe1.on(\.tSomeFunc) { process in
                let (_, object) = process.arguments
                if object == nil {
                    log.append("pipe1 _ return nil.")
                    return nil
                } else if object is [Any] {
                    log.append("pipe1 _ return NSDate.")
                    return date
                }
                log.append("pipe1 _ return NSObject.")
                return marker
            }
            pipe2.on(\.tSomeFunc).upstream(is: Date.self).handle { _ in
                log.append("pipe2 _ up steam return NSDate.")
                return nil
            }
            pipe3.on(\.tSomeFunc).upstreamNotNil().handle { process in
                let same = (process.upstream as? Marker) === marker
                log.append("pipe3 _ up steam return not Null. (p1's object: \(same))")
                return nil
            }
            try pipe1.append(pipe2).append(pipe3)
        }
    }

    @Test("Example 4: object nil → only p1 runs")
    func nilObjectRunsOnlyP1() throws {
        let example = try Example4()
        let result = example.pipe3.tSomeFunc(0, nil)
        #expect(result == nil)
        #expect(example.log.take() == ["pipe1 _ return nil."])

        let report = example.pipe3.tSomeFunc.report(0, nil)
        #expect(report.runCount == 1)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .skipped(.upstreamNotOfType("Date")), .skipped(.upstreamNil),
            ])
    }

    @Test("Example 4: object [1, 2] → p1 and p2 run; p3 skipped because p2 returned nil")
    func arrayObjectRunsP1AndP2() throws {
        let example = try Example4()
        let result = example.pipe2.tSomeFunc(0, [1, 2])
        #expect(result == nil)
        #expect(
            example.log.take() == ["pipe1 _ return NSDate.", "pipe2 _ up steam return NSDate."])

        let report = example.pipe2.tSomeFunc.report(0, [1, 2])
        #expect(report.runCount == 2)
        #expect(report.trace.steps.map(\.outcome) == [.ran, .ran, .skipped(.upstreamNil)])
    }

    @Test("Example 4: object [\"a\": \"aa\"] → p1 and p3 run, and p3 sees p1's object")
    func dictionaryObjectRunsP1AndP3() throws {
        let example = try Example4()
        let result = example.pipe1.tSomeFunc(0, ["a": "aa"])
        #expect(result == nil)
        #expect(
            example.log.take() == [
                "pipe1 _ return NSObject.",
                "pipe3 _ up steam return not Null. (p1's object: true)",
            ])

        let report = example.pipe1.tSomeFunc.report(0, ["a": "aa"])
        #expect(report.trace.ran == ["pipe1", "pipe3"])
        #expect(report.trace.steps[1].outcome == .skipped(.upstreamNotOfType("Date")))
    }

    @Test("upstream(is:) where the type is the action's result type: a nil check")
    func upstreamIsResultType() throws {
        let pipes = try makeChain("p1", "p2")
        let first = Box<Int?>(nil)
        pipes[0].on(\.tPing) { _ in first.value }
        pipes[1].on(\.tPing).upstream(is: Int.self).handle { process in (process.upstream ?? 0) * 10
        }

        #expect(pipes[0].tPing(0) == nil)
        #expect(
            pipes[0].tPing.report(0).trace.steps[1].outcome == .skipped(.upstreamNotOfType("Int")))
        first.set(4)
        #expect(pipes[0].tPing(0) == 40)
    }

    @Test("upstream(is:) on the first handler: there is no upstream, so it is skipped")
    func upstreamIsOnFirstHandler() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tSomeFunc).upstream(is: String.self).handle { _ in "ran" }
        #expect(pipe.tSomeFunc(0, nil) == nil)
        #expect(
            pipe.tSomeFunc.report(0, nil).trace.steps[0].outcome
                == .skipped(.upstreamNotOfType("String")))
    }

    @Test("upstream(is:) checks the kind, not the exact type: a subclass counts")
    func upstreamIsAcceptsSubclasses() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tSomeFunc) { _ in NSMutableString(string: "mutable") }
        pipes[1].on(\.tSomeFunc).upstream(is: NSString.self).handle { _ in "saw an NSString" }
        #expect(pipes[0].tSomeFunc(0, nil) as? String == "saw an NSString")
    }

    @Test("upstreamNotNil looks through optional results: a returned .some(nil) counts as nil")
    func upstreamNotNilLooksThroughOptionalResults() throws {
        let pipes = try makeChain("p1", "p2")
        let first = Box<String??>(.some(nil))
        pipes[0].on(\.tOptional) { _ in first.value }
        pipes[1].on(\.tOptional).upstreamNotNil().handle { _ in "p2" }

        #expect(pipes[0].tOptional.report(0).trace.steps[1].outcome == .skipped(.upstreamNil))
        first.set("p1")
        #expect(pipes[0].tOptional(0) == "p2")
    }

    @Test("upstreamNotNil on an Any result looks through a boxed Optional.none")
    func upstreamNotNilLooksThroughBoxedNil() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tSomeFunc) { process in
            // A handler forwarding a lookup that found nothing: an Optional.none inside Any.
            let missing: Int? = nil
            return missing as Any
        }
        pipes[1].on(\.tSomeFunc).upstreamNotNil().handle { process in
            log.append("p2 ran with upstream \(show(process.upstream))")
            return "p2"
        }

        let report = pipes[0].tSomeFunc.report(0, nil)
        #expect(report.trace.steps[1].outcome == .skipped(.upstreamNil))
        #expect(log.all == [])
    }

    @Test("argument(\\.1, is:) — the README's paramKindOf(2, NSArray), 0-based here")
    func argumentIsKind() {
        let log = Log()
        let pipe1 = ActionPipe(name: "pipe1")
        pipe1.on(\.tSomeFunc).argument(\.1, is: [Int].self).handle { _ in
            log.append("pipe1 _ param objc is Array.")
            return nil
        }

        pipe1.tSomeFunc(0, [1, 2])
        pipe1.tSomeFunc(0, "not an array")
        pipe1.tSomeFunc(0, nil)

        #expect(log.all == ["pipe1 _ param objc is Array."])
        #expect(
            pipe1.tSomeFunc.report(0, "x").trace.steps[0].outcome
                == .skipped(.argumentNotOfType(argument: "1", expected: "Array<Int>")))
    }

    @Test("argument(\\.0, is:) checks the first argument")
    func argumentZeroIsTheFirstArgument() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tAnything).argument(\.self, is: Int.self).handle { _ in "int" }
        #expect(pipe.tAnything(3) == "int")
        #expect(pipe.tAnything("3") == nil)

        let pair = ActionPipe(name: "pair")
        pair.on(\.tSomeFunc).argument(\.0, is: Int.self).handle { _ in "always an Int" }
        #expect(pair.tSomeFunc(0, nil) as? String == "always an Int")
    }

    @Test("argumentNotNil(\\.1): a nil object skips; a boxed Optional.none counts as nil")
    func argumentNotNil() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tSomeFunc).argumentNotNil(\.1).handle { process in show(process.arguments.1) }

        #expect(pipe.tSomeFunc(0, "x") as? String == "x")
        #expect(pipe.tSomeFunc(0, nil) == nil)
        let missing: Int? = nil
        #expect(pipe.tSomeFunc(0, missing as Any) == nil)
        #expect(
            pipe.tSomeFunc.report(0, nil).trace.steps[0].outcome
                == .skipped(.argumentNil(argument: "1")))
    }

    @Test("A one-argument action uses \\.self as the position")
    func oneArgumentActionUsesSelf() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tMaybe).argumentNotNil(\.self).handle { process in
            let value: Int? = process.arguments
            return (value ?? 0) + 1
        }

        #expect(pipe.tMaybe(41) == 42)
        #expect(pipe.tMaybe(nil) == nil)
        let report = pipe.tMaybe.report(nil)
        #expect(report.runCount == 0)
        guard case .skipped(.argumentNil) = report.trace.steps[0].outcome else {
            Issue.record("expected argumentNil, got \(report.trace.steps[0].outcome)")
            return
        }
    }

    @Test("when(_:_:) runs the handler only when the predicate holds; its name is traced")
    func customCondition() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing).when("number is positive") { process in process.arguments > 0 }
            .handle { process in process.arguments * 2 }

        #expect(pipe.tPing(21) == 42)
        #expect(pipe.tPing(-1) == nil)
        #expect(pipe.tPing(0) == nil)
        #expect(
            pipe.tPing.report(0).trace.steps[0].outcome
                == .skipped(.conditionFailed("number is positive")))
    }

    @Test("when(_:_:) sees the upstream value and the rewritten arguments")
    func customConditionSeesTheCallSoFar() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPing) { process in
            process.rewrite(\.self, to: 100)
            return 7
        }
        pipes[1].on(\.tPing).when("upstream is 7 and argument 100") { process in
            process.upstream == 7 && process.arguments == 100
        }.handle { _ in 8 }
        pipes[2].on(\.tPing).when("upstream is 7") { process in process.upstream == 7 }
            .handle { _ in 9 }

        let report = pipes[0].tPing.report(1)
        #expect(report.value == 8)
        #expect(
            report.trace.steps.map(\.outcome) == [
                .ran, .ran, .skipped(.conditionFailed("upstream is 7")),
            ])
    }

    @Test("Conditions are checked against rewritten arguments")
    func conditionsSeeRewrittenArguments() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tSomeFunc) { process in
            process.rewrite(\.1, to: nil)
            return "p1"
        }
        pipes[1].on(\.tSomeFunc).argumentNotNil(\.1).handle { _ in "p2" }

        #expect(pipes[0].tSomeFunc(0, "present") as? String == "p1")
        #expect(
            pipes[0].tSomeFunc.report(0, "present").trace.steps[1].outcome
                == .skipped(.argumentNil(argument: "1")))
    }

    @Test("Combined conditions: all must hold; the first failing one is reported")
    func combinedConditions() throws {
        let pipes = try makeChain("p1", "p2")
        let upstream = Box<(any Sendable)?>(nil)
        pipes[0].on(\.tSomeFunc) { _ in upstream.value }
        pipes[1].on(\.tSomeFunc)
            .state([.start, .success])
            .upstreamNotNil()
            .upstream(is: String.self)
            .argument(\.1, is: [Int].self)
            .when("number is even") { process in process.arguments.0 % 2 == 0 }
            .handle { _ in "p2 ran" }

        func outcome(state: ActionState?, _ number: Int, _ object: Any?) -> ActionTrace.Outcome {
            let bound = state.map { pipes[0].tSomeFunc.with(state: $0) } ?? pipes[0].tSomeFunc
            return bound.report(number, object).trace.steps[1].outcome
        }

        upstream.set("text")
        #expect(outcome(state: .start, 2, [1]) == .ran)
        #expect(outcome(state: nil, 2, [1]) == .ran)
        #expect(outcome(state: .success, 2, [1]) == .ran)
        #expect(
            outcome(state: .error, 2, [1])
                == .skipped(.stateMismatch(handler: [.start, .success], call: .error)))
        #expect(outcome(state: .start, 3, [1]) == .skipped(.conditionFailed("number is even")))
        #expect(
            outcome(state: .start, 2, "no")
                == .skipped(.argumentNotOfType(argument: "1", expected: "Array<Int>")))
        // Two failing conditions: the first one added is reported.
        #expect(
            outcome(state: .start, 3, "no")
                == .skipped(.argumentNotOfType(argument: "1", expected: "Array<Int>")))
        upstream.set(5)
        #expect(outcome(state: .start, 2, [1]) == .skipped(.upstreamNotOfType("String")))
        upstream.set(nil)
        #expect(outcome(state: .start, 2, [1]) == .skipped(.upstreamNil))
        // The state is checked before the other conditions.
        #expect(
            outcome(state: .end, 3, "no")
                == .skipped(.stateMismatch(handler: [.start, .success], call: .end)))
        #expect(pipes[0].with(state: .start).tSomeFunc(2, [1]) == nil)
        upstream.set("text")
        #expect(pipes[0].with(state: .start).tSomeFunc(2, [1]) as? String == "p2 ran")
    }

    @Test("A registration is a value: conditions added to a copy do not leak back")
    func registrationIsAValue() {
        let pipe = ActionPipe(name: "p")
        let base = pipe.on(\.tPing)
        let strict = base.when("never") { _ in false }
        #expect(!pipe.handles(\.tPing))  // nothing is registered before `handle`

        base.handle { _ in 1 }
        #expect(pipe.tPing(0) == 1)
        strict.handle { _ in 2 }
        #expect(pipe.tPing(0) == nil)
        base.handle { _ in 3 }
        #expect(pipe.tPing(0) == 3)
    }
}
