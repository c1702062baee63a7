import ActionPipe
import Testing

@Suite("Composition: append, removeFromChain, cycles, stale links, stale caches")
struct CompositionTests {
    /// Calls `tPing` from every pipe and returns the run orders.
    private func runOrders(_ pipes: [ActionPipe], log: Log) -> [[String]] {
        pipes.map { pipe in
            pipe.tPing(0)
            return log.take()
        }
    }

    @Test("Every member sees the same whole chain: names and run order")
    func everyMemberSeesTheWholeChain() throws {
        let c1 = ActionPipe(name: "c1")
        let c2 = ActionPipe(name: "c2")
        let c3 = ActionPipe(name: "c3")
        let c4 = ActionPipe(name: "c4")
        let log = Log()
        registerPings(on: [c1, c2, c3, c4], log: log)
        try c1.append(c2)
        try c3.append(c4)
        try c2.append(c3)  // c3's whole chain

        let expected = ["c1", "c2", "c3", "c4"]
        for pipe in [c1, c2, c3, c4] {
            #expect(pipe.chainNames == expected)
        }
        #expect(runOrders([c1, c2, c3, c4], log: log) == Array(repeating: expected, count: 4))
        #expect(c1.isInSameChain(as: c4))
        #expect(c4.isInSameChain(as: c1))
    }

    @Test("p1.append(p1) throws alreadyInChain and changes nothing")
    func appendingItselfIsRejected() throws {
        let p1 = ActionPipe(name: "p1")
        let log = Log()
        registerPings(on: [p1], log: log)
        #expect(throws: ChainError.alreadyInChain(pipe: "p1", chain: ["p1"])) {
            try p1.append(p1)
        }
        #expect(p1.chainNames == ["p1"])
        #expect(p1.tPing(0) == 1)
        #expect(log.take() == ["p1"])
    }

    @Test("p1 → p2, then p2.append(p1) throws and changes nothing")
    func twoPipeCycleIsRejected() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(throws: ChainError.alreadyInChain(pipe: "p1", chain: ["p1", "p2"])) {
            try pipes[1].append(pipes[0])
        }
        #expect(throws: ChainError.alreadyInChain(pipe: "p2", chain: ["p1", "p2"])) {
            try pipes[0].append(pipes[1])
        }
        for pipe in pipes {
            #expect(pipe.chainNames == ["p1", "p2"])
        }
        #expect(runOrders(pipes, log: log) == [["p1", "p2"], ["p1", "p2"]])
    }

    @Test("Appending a pipe already anywhere in the chain throws and changes nothing")
    func appendingAMemberIsRejected() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        for receiver in pipes {
            for other in pipes {
                #expect(
                    throws: ChainError.alreadyInChain(pipe: other.name, chain: ["p1", "p2", "p3"])
                ) {
                    try receiver.append(other)
                }
            }
        }
        for pipe in pipes {
            #expect(pipe.chainNames == ["p1", "p2", "p3"])
        }
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1", "p2", "p3"], count: 3))
        #expect(pipes[0].tPing.report(0).trace.steps.map(\.pipe) == ["p1", "p2", "p3"])
    }

    @Test("removeFromChain of the middle pipe: the others stay connected in order")
    func removeTheMiddle() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)

        #expect(pipes[1].removeFromChain())

        #expect(pipes[0].chainNames == ["p1", "p3"])
        #expect(pipes[2].chainNames == ["p1", "p3"])
        #expect(pipes[1].chainNames == ["p2"])
        #expect(!pipes[1].isInSameChain(as: pipes[0]))
        #expect(pipes[0].isInSameChain(as: pipes[2]))
        // p2 keeps its handlers, alone.
        #expect(runOrders(pipes, log: log) == [["p1", "p3"], ["p2"], ["p1", "p3"]])
        #expect(pipes[1].tPing(0) == 2)
        _ = log.take()
    }

    @Test("removeFromChain of the head: the new head runs (not skipped)")
    func removeTheHead() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(pipes[0].removeFromChain())
        #expect(pipes[2].chainNames == ["p2", "p3"])
        #expect(runOrders(pipes, log: log) == [["p1"], ["p2", "p3"], ["p2", "p3"]])
    }

    @Test("removeFromChain of the tail")
    func removeTheTail() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(pipes[2].removeFromChain())
        #expect(runOrders(pipes, log: log) == [["p1", "p2"], ["p1", "p2"], ["p3"]])
    }

    @Test("Re-adding a pipe elsewhere leaves no stale links in its old chain")
    func readdingElsewhereLeavesNoStaleLinks() throws {
        let chainA = try makeChain("a1", "a2", "a3")
        let chainB = try makeChain("b1", "b2")
        let log = Log()
        registerPings(on: chainA + chainB, log: log)

        // Move a2 into B.
        #expect(chainA[1].removeFromChain())
        try chainB[1].append(chainA[1])
        #expect(chainA[0].chainNames == ["a1", "a3"])
        #expect(chainB[0].chainNames == ["b1", "b2", "a2"])
        #expect(chainA[1].chainNames == ["b1", "b2", "a2"])
        #expect(
            runOrders(chainA + chainB, log: log) == [
                ["a1", "a3"], ["b1", "b2", "a2"], ["a1", "a3"], ["b1", "b2", "a2"],
                ["b1", "b2", "a2"],
            ])

        // Move the head a1 into B too: A's new head, a3, is not skipped.
        #expect(chainA[0].removeFromChain())
        try chainB[0].append(chainA[0])
        #expect(chainA[2].chainNames == ["a3"])
        #expect(chainB[1].chainNames == ["b1", "b2", "a2", "a1"])
        #expect(
            runOrders(chainA + chainB, log: log) == [
                ["b1", "b2", "a2", "a1"], ["b1", "b2", "a2", "a1"], ["a3"],
                ["b1", "b2", "a2", "a1"], ["b1", "b2", "a2", "a1"],
            ])

        // Move them back, in a new order.
        #expect(chainA[0].removeFromChain())
        #expect(chainA[1].removeFromChain())
        try chainA[2].append(chainA[0])
        try chainA[0].append(chainA[1])
        #expect(chainA[1].chainNames == ["a3", "a1", "a2"])
        #expect(chainB[0].chainNames == ["b1", "b2"])
        #expect(
            runOrders(chainA + chainB, log: log) == [
                ["a3", "a1", "a2"], ["a3", "a1", "a2"], ["a3", "a1", "a2"], ["b1", "b2"],
                ["b1", "b2"],
            ])
    }

    @Test("Appending a member of another chain, without removing it, joins the chains whole")
    func appendingAMemberOfAnotherChainJoinsWhole() throws {
        let chainA = try makeChain("a1", "a2", "a3")
        let chainB = try makeChain("b1", "b2")
        let log = Log()
        registerPings(on: chainA + chainB, log: log)
        try chainB[1].append(chainA[1])
        let expected = ["b1", "b2", "a1", "a2", "a3"]
        for pipe in chainA + chainB {
            #expect(pipe.chainNames == expected)
        }
        #expect(runOrders(chainA + chainB, log: log) == Array(repeating: expected, count: 5))
    }

    @Test("Stale cache: a handler registered AFTER the first call is seen by the next call")
    func registrationAfterTheFirstCall() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: [pipes[0]], log: log)
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1"], count: 3))

        registerPings(on: [pipes[0], pipes[1], pipes[2]], log: log)
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1", "p2", "p3"], count: 3))

        // An action first called before anyone registered it.
        #expect(pipes[2].tOther(1) == nil)
        pipes[1].on(\.tOther) { _ in 2 }
        #expect(pipes[2].tOther(1) == 2)
        #expect(pipes[0].tOther(1) == 2)
    }

    @Test("Stale cache: composing AFTER the first call is seen by the next call")
    func compositionAfterTheFirstCall() throws {
        let p1 = ActionPipe(name: "p1")
        let p2 = ActionPipe(name: "p2")
        let p3 = ActionPipe(name: "p3")
        let log = Log()
        registerPings(on: [p1, p2, p3], log: log)
        #expect(runOrders([p1, p2, p3], log: log) == [["p1"], ["p2"], ["p3"]])

        try p1.append(p2)
        #expect(runOrders([p1, p2, p3], log: log) == [["p1", "p2"], ["p1", "p2"], ["p3"]])

        try p2.append(p3)
        #expect(
            runOrders([p1, p2, p3], log: log) == Array(repeating: ["p1", "p2", "p3"], count: 3))

        #expect(p2.removeFromChain())
        #expect(runOrders([p1, p2, p3], log: log) == [["p1", "p3"], ["p2"], ["p1", "p3"]])
    }

    @Test("Stale cache: removing or replacing AFTER the first call is seen by the next call")
    func removalAfterTheFirstCall() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1", "p2", "p3"], count: 3))

        #expect(pipes[1].removeHandler(for: \.tPing))
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1", "p3"], count: 3))

        let token = pipes[2].on(\.tPing) { _ in
            log.append("p3 replaced")
            return 30
        }
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1", "p3 replaced"], count: 3))

        #expect(token.cancel())
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p1"], count: 3))
    }

    @Test("A removed pipe can be appended back; it goes to the end")
    func appendBack() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(pipes[0].removeFromChain())
        try pipes[1].append(pipes[0])
        #expect(runOrders(pipes, log: log) == Array(repeating: ["p2", "p3", "p1"], count: 3))
    }

    @Test("Removing every other pipe of a long chain keeps the rest in order")
    func removeManyFromALongChain() throws {
        let names = (0..<20).map { "n\($0)" }
        let pipes = names.map { ActionPipe(name: $0) }
        for pipe in pipes.dropFirst() { try pipes[0].append(pipe) }
        let log = Log()
        registerPings(on: pipes, log: log)
        for (index, pipe) in pipes.enumerated() where index % 2 == 1 {
            #expect(pipe.removeFromChain())
        }
        let kept = names.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(pipes[0].chainNames == kept)
        #expect(pipes[18].chainNames == kept)
        pipes[4].tPing(0)
        #expect(log.take() == kept)
    }
}
