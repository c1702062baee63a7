import ActionPipe
import Testing

@Suite("Misuse: defined, harmless outcomes and readable errors")
struct CoreMisuseTests {
    @Test("Calling an action no one registered: nil, no handler ran, every step notRegistered")
    func callingAnUnregisteredAction() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        pipes[0].on(\.tPing) { _ in 1 }  // another action

        #expect(pipes[1].tOther(0) == nil)
        let report = pipes[1].tOther.report(0)
        #expect(report.value == nil)
        #expect(report.runCount == 0)
        #expect(report.stoppedBy == nil)
        #expect(!report.wasStopped)
        #expect(report.trace.ran == [])
        #expect(report.trace.steps.map(\.pipe) == ["p1", "p2", "p3"])
        #expect(
            report.trace.steps.map(\.outcome)
                == Array(repeating: .skipped(.notRegistered), count: 3))
        #expect(
            report.trace.description
                == "tOther(0): p1 skipped (not registered) → p2 skipped (not registered) → "
                + "p3 skipped (not registered)")
    }

    @Test("A lone pipe without handlers")
    func lonePipeWithoutHandlers() {
        let pipe = ActionPipe(name: "empty")
        #expect(pipe.tSomeFunc(1, nil) == nil)
        #expect(pipe.tSomeFunc3() == nil)
        let report = pipe.tSomeFunc3.report()
        #expect(report.trace.description == "tSomeFunc3(): empty skipped (not registered)")
        #expect(report.runCount == 0)
    }

    @Test("A handler on a pipe outside the chain does not run")
    func handlerOutsideTheChain() throws {
        let pipes = try makeChain("p1", "p2")
        let outsider = ActionPipe(name: "outsider")
        outsider.on(\.tPing) { _ in 99 }
        #expect(pipes[0].tPing(0) == nil)
        #expect(outsider.tPing(0) == 99)
    }

    @Test("Removing a handler that is not there returns false and removes nothing")
    func removingAMissingHandler() {
        let pipe = ActionPipe(name: "p")
        #expect(!pipe.removeHandler(for: \.tPing))
        pipe.on(\.tOther) { _ in 1 }
        #expect(!pipe.removeHandler(for: \.tPing))
        #expect(pipe.tOther(0) == 1)
    }

    @Test("removeFromChain on a lone pipe returns false and changes nothing")
    func removeFromChainOnALonePipe() throws {
        let pipe = ActionPipe(name: "alone")
        pipe.on(\.tPing) { _ in 1 }
        #expect(!pipe.removeFromChain())
        #expect(!pipe.removeFromChain())
        #expect(pipe.chainNames == ["alone"])
        #expect(pipe.tPing(0) == 1)

        // A pipe left alone after its partner left.
        let pipes = try makeChain("a", "b")
        #expect(pipes[0].removeFromChain())
        #expect(!pipes[1].removeFromChain())
        #expect(!pipes[0].removeFromChain())
    }

    @Test("Cancelling a token twice: true, then false")
    func cancellingTwice() {
        let pipe = ActionPipe(name: "p")
        let token = pipe.on(\.tPing) { _ in 1 }
        #expect(token.cancel())
        #expect(!token.cancel())
        #expect(!token.cancel())
        #expect(!token.isActive)
    }

    @Test("ChainError reads well: it names the pipe, the chain, and what to do")
    func chainErrorDescription() throws {
        let pipes = try makeChain("pipe1", "pipe2")
        do {
            try pipes[1].append(pipes[0])
            Issue.record("appending a member must throw")
        } catch {
            #expect(error == .alreadyInChain(pipe: "pipe1", chain: ["pipe1", "pipe2"]))
            let text = "\(error)"
            #expect(
                text
                    == "pipe1 is already in the chain pipe1 → pipe2: appending it would make a cycle. "
                    + "Nothing was changed. To move it, call removeFromChain() on it first.")
            #expect(text.contains("pipe1"))
            #expect(text.contains("removeFromChain()"))
            #expect(String(describing: error as any Error) == text)
        }
    }

    @Test("A rejected append does not change the pipe that was to be appended either")
    func rejectedAppendChangesNeitherSide() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(throws: ChainError.self) { try pipes[2].append(pipes[1]) }
        #expect(pipes[1].removeFromChain())
        #expect(pipes[0].chainNames == ["p1", "p3"])
        #expect(pipes[1].chainNames == ["p2"])
        pipes[0].tPing(0)
        #expect(log.take() == ["p1", "p3"])
    }

    @Test("A handler that rewrites or stops as the last handler changes nothing else")
    func lastHandlerRewritesAndStops() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing) { process in
            process.rewrite(\.self, to: 100)
            process.sideData[Keys.counter] = 1
            process.stop()
            return process.arguments
        }
        #expect(pipe.tPing(1) == 100)
        #expect(pipe.tPing(2) == 100)
        #expect(pipe.tPing.report(3).stoppedBy == "p")
    }

    @Test("Registering on a pipe that was removed from a chain does not affect the old chain")
    func registeringOnARemovedPipe() throws {
        let pipes = try makeChain("p1", "p2")
        #expect(pipes[1].removeFromChain())
        pipes[1].on(\.tPing) { _ in 2 }
        #expect(pipes[0].tPing(0) == nil)
        #expect(pipes[1].tPing(0) == 2)
    }

    @Test("Calling with a state that no handler meets returns nil, like no handler")
    func stateNoHandlerMeets() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing).state(.start).handle { _ in 1 }
        #expect(pipe.with(state: .end).tPing(0) == nil)
        #expect(pipe.tPing.with(state: .end).report(0).runCount == 0)
    }
}
