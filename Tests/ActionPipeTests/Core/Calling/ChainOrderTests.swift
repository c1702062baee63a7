import ActionPipe
import Testing

@Suite("Calling: chain order and results (SEMANTICS §1 Calling 1–3)")
struct ChainOrderTests {
    /// The README's composition example, pipe for pipe.
    private func readmeChain(log: Log) throws -> (ActionPipe, ActionPipe, ActionPipe) {
        let pipe1 = ActionPipe(name: "pipe1")
        let pipe2 = ActionPipe(name: "pipe2")
        let pipe3 = ActionPipe(name: "pipe3")
        for pipe in [pipe1, pipe2, pipe3] {
            let name = pipe.name
            pipe.on(\.tSomeFunc2) { process in
                let (size, object) = process.arguments
                log.append("\(name) _ called size: \(size.height) \(size.width) , \(object)")
                return ()
            }
        }
        pipe2.on(\.tSomeFunc3) { _ in
            log.append("someFunc3 called.")
            return ()
        }
        try pipe1.append(pipe2).append(pipe3)
        return (pipe1, pipe2, pipe3)
    }

    @Test("Example 1: calling on pipe3 runs pipe1, pipe2, pipe3 in chain order")
    func callingOnTheTailRunsTheWholeChainInOrder() throws {
        let log = Log()
        let (_, _, pipe3) = try readmeChain(log: log)

        let result: Void? = pipe3.tSomeFunc2(Size(width: 10, height: 20), "hello")

        #expect(result != nil)
        #expect(
            log.take() == [
                "pipe1 _ called size: 20.0 10.0 , hello",
                "pipe2 _ called size: 20.0 10.0 , hello",
                "pipe3 _ called size: 20.0 10.0 , hello",
            ])
    }

    @Test("Example 1: every member of the chain runs the same order")
    func everyMemberRunsTheSameOrder() throws {
        let log = Log()
        let (pipe1, pipe2, pipe3) = try readmeChain(log: log)
        for pipe in [pipe1, pipe2, pipe3] {
            pipe.tSomeFunc2(Size(width: 1, height: 2), pipe.name)
            #expect(
                log.take() == [
                    "pipe1 _ called size: 2.0 1.0 , \(pipe.name)",
                    "pipe2 _ called size: 2.0 1.0 , \(pipe.name)",
                    "pipe3 _ called size: 2.0 1.0 , \(pipe.name)",
                ])
        }
    }

    @Test("Example 1: someFunc3, registered only on pipe2, called through pipe1 runs pipe2 only")
    func actionRegisteredOnlyOnTheMiddlePipeRunsOnlyIt() throws {
        let log = Log()
        let (pipe1, _, _) = try readmeChain(log: log)

        let result: Void? = pipe1.tSomeFunc3()

        #expect(result != nil)
        #expect(log.take() == ["someFunc3 called."])
        let report = pipe1.tSomeFunc3.report()
        #expect(report.trace.steps.map(\.pipe) == ["pipe1", "pipe2", "pipe3"])
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.notRegistered), .ran, .skipped(.notRegistered),
            ])
        #expect(log.take() == ["someFunc3 called."])
    }

    @Test("README §1–2: a lone pipe answers its action with the handler's value")
    func lonePipeReturnsTheHandlersValue() {
        let log = Log()
        let pipe = ActionPipe(name: "pipe")
        pipe.on(\.tNumberFunc) { process in
            let (number, object) = process.arguments
            log.append("number _ \(number) , objc _ \(show(object))")
            return 100.0
        }

        let result = pipe.tNumberFunc(999, [1, 2, 3])

        #expect(result == 100.0)
        #expect(log.all == ["number _ 999 , objc _ [1, 2, 3]"])
    }

    @Test("Example 2: the caller gets the value of the LAST handler that ran")
    func resultIsTheLastHandlersValue() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)

        #expect(pipes[0].tPing(0) == 3)
        #expect(pipes[2].tPing(0) == 3)
        #expect(log.all == ["p1", "p2", "p3", "p1", "p2", "p3"])
    }

    @Test("Example 2: a skipped handler leaves the current value as it was")
    func skippedHandlerLeavesTheValue() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPing) { _ in 1 }
        pipes[1].on(\.tPing) { _ in 2 }
        pipes[2].on(\.tPing).when("never") { _ in false }.handle { _ in 3 }

        #expect(pipes[0].tPing(0) == 2)

        // A skipped handler in the middle: the last one sees the value from before it.
        let upstreams = Log()
        pipes[1].on(\.tPing).when("never") { _ in false }.handle { _ in 2 }
        pipes[2].on(\.tPing) { process in
            upstreams.append(show(process.upstream))
            return process.upstream
        }
        #expect(pipes[1].tPing(0) == 1)
        #expect(upstreams.all == ["1"])
    }

    @Test("Example 2: return values do not flow through; a handler returning nil makes nil")
    func returnValuesDoNotFlowThrough() throws {
        let pipes = try makeChain("p1", "p2")
        let seen = Log()
        pipes[0].on(\.tPing) { process in
            seen.append("p1 upstream \(show(process.upstream))")
            return 5
        }
        pipes[1].on(\.tPing) { process in
            seen.append("p2 upstream \(show(process.upstream))")
            return nil
        }

        #expect(pipes[0].tPing(0) == nil)
        #expect(seen.all == ["p1 upstream nil", "p2 upstream 5"])
        let report = pipes[0].tPing.report(0)
        #expect(report.value == nil)
        #expect(report.runCount == 2)
    }

    @Test("Example 3: when no handler ran, the caller gets nil")
    func noHandlerRanGivesNil() throws {
        let pipes = try makeChain("p1", "p2")
        #expect(pipes[0].tPing(1) == nil)
        #expect(pipes[0].tSomeFunc3() == nil)

        pipes[0].on(\.tPing).when("never") { _ in false }.handle { _ in 1 }
        pipes[1].on(\.tPing).state(.error).handle { _ in 2 }
        #expect(pipes[1].with(state: .start).tPing(1) == nil)
        #expect(pipes[1].with(state: .start).tPing.report(1).runCount == 0)
        #expect(pipes[1].with(state: .error).tPing(1) == 2)
        pipes[1].on(\.tPing).when("never") { _ in false }.handle { _ in 2 }
        #expect(pipes[1].tPing(1) == nil)
    }

    @Test("A Void action returns () when a handler ran and nil when none did")
    func voidActionResult() {
        let pipe = ActionPipe(name: "p")
        #expect(pipe.tSomeFunc3() == nil)
        pipe.on(\.tSomeFunc3) { _ in () }
        #expect(pipe.tSomeFunc3() != nil)
    }

    @Test("A zero-argument action with a result")
    func zeroArgumentAction() throws {
        let pipes = try makeChain("p1", "p2")
        pipes[0].on(\.tValue) { _ in 41 }
        pipes[1].on(\.tValue) { process in (process.upstream ?? 0) + 1 }
        #expect(pipes[1].tValue() == 42)
    }

    @Test("Appending chains keeps both orders: (a → b) + (c → d) is a → b → c → d")
    func appendingChainsKeepsOrder() throws {
        let a = ActionPipe(name: "a")
        let b = ActionPipe(name: "b")
        let c = ActionPipe(name: "c")
        let d = ActionPipe(name: "d")
        try a.append(b)
        try c.append(d)
        let log = Log()
        registerPings(on: [a, b, c, d], log: log)

        // Appending through a member that is not the head appends the whole chain.
        let returned = try b.append(d)

        #expect(returned === d)
        for pipe in [a, b, c, d] {
            #expect(pipe.chainNames == ["a", "b", "c", "d"])
            #expect(pipe.tPing(0) == 4)
            #expect(log.take() == ["a", "b", "c", "d"])
        }
    }

    @Test("A long chain runs in append order")
    func longChainRunsInOrder() throws {
        let names = (0..<50).map { "n\($0)" }
        let pipes = names.map { ActionPipe(name: $0) }
        for pipe in pipes.dropFirst() {
            try pipes[0].append(pipe)
        }
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(pipes[25].tPing(0) == 50)
        #expect(log.take() == names)
        #expect(pipes[49].chainNames == names)
    }

    @Test("Action names come from the declaring property, or are given")
    func actionNames() {
        #expect(Actions().tSomeFunc.name == "tSomeFunc")
        #expect(Actions().tSomeFunc3.name == "tSomeFunc3")
        #expect(Actions().tNamed.name == "custom name")
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tNamed) { _ in 1 }
        #expect(pipe.tNamed.report(0).trace.action == "custom name")
    }

    @Test("Pipe names: given, or unique pipe#N; the description is the name")
    func pipeNames() {
        let named = ActionPipe(name: "login")
        #expect(named.name == "login")
        #expect(named.description == "login")
        #expect("\(named)" == "login")
        let first = ActionPipe()
        let second = ActionPipe()
        #expect(first.name.hasPrefix("pipe#"))
        #expect(second.name.hasPrefix("pipe#"))
        #expect(first.name != second.name)
    }
}
