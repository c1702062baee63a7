import ActionPipe
import Testing

@Suite("Registration: replace, remove, tokens")
struct CoreRegistrationTests {
    @Test("Registering the same action twice on one pipe replaces: only the second runs")
    func registeringTwiceReplaces() {
        let log = Log()
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing) { _ in
            log.append("first")
            return 1
        }
        pipe.on(\.tPing) { _ in
            log.append("second")
            return 2
        }
        #expect(pipe.tPing(0) == 2)
        #expect(log.all == ["second"])
        #expect(pipe.tPing.report(0).runCount == 1)
    }

    @Test("A replaced handler keeps its pipe's place in the chain")
    func replacementKeepsChainOrder() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        registerPings(on: pipes, log: log)
        pipes[0].on(\.tPing) { _ in
            log.append("p1 again")
            return 10
        }
        #expect(pipes[1].tPing(0) == 2)
        #expect(log.all == ["p1 again", "p2"])
    }

    @Test("Replacing also replaces the conditions")
    func replacingReplacesConditions() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing).state(.error).when("never") { _ in false }.handle { _ in 1 }
        #expect(pipe.tPing(0) == nil)
        pipe.on(\.tPing) { _ in 2 }
        #expect(pipe.with(state: .start).tPing(0) == 2)
    }

    @Test("One pipe answers many actions independently")
    func onePipeManyActions() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing) { process in process.arguments + 1 }
        pipe.on(\.tOther) { process in process.arguments - 1 }
        pipe.on(\.tLoad) { process in process.arguments.uppercased() }
        #expect(pipe.tPing(10) == 11)
        #expect(pipe.tOther(10) == 9)
        #expect(pipe.tLoad("abc") == "ABC")
        #expect(pipe.removeHandler(for: \.tOther))
        #expect(pipe.tPing(10) == 11)
        #expect(pipe.tOther(10) == nil)
        #expect(pipe.tLoad("abc") == "ABC")
    }

    @Test(
        "The first action a pipe registered is stored apart from the others: removing, re-adding and replacing it keep every action answered once"
    )
    func firstActionStoredApart() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tPing) { process in process.arguments + 1 }
        pipe.on(\.tOther) { process in process.arguments - 1 }
        #expect(pipe.removeHandler(for: \.tPing))
        #expect(!pipe.handles(\.tPing))
        #expect(pipe.tOther(10) == 9)
        // tPing comes back while tOther is stored with the others; registering tOther
        // again must replace it, not add a second entry.
        pipe.on(\.tPing) { process in process.arguments + 100 }
        pipe.on(\.tOther) { process in process.arguments - 100 }
        #expect(pipe.tPing(10) == 110)
        #expect(pipe.tOther(10) == -90)
        #expect(pipe.tOther.report(10).runCount == 1)
        let token = pipe.on(\.tLoad) { process in process.arguments.uppercased() }
        #expect(token.cancel())
        #expect(!token.cancel())
        #expect(pipe.tLoad("abc") == nil)
        #expect(pipe.removeHandler(for: \.tOther))
        #expect(!pipe.removeHandler(for: \.tOther))
        #expect(pipe.tPing(1) == 101)
    }

    @Test("removeHandler(for:) removes the pipe's handler; a second removal returns false")
    func removeHandler() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        registerPings(on: pipes, log: log)
        #expect(pipes[0].handles(\.tPing))

        #expect(pipes[0].removeHandler(for: \.tPing))

        #expect(!pipes[0].handles(\.tPing))
        #expect(pipes[1].handles(\.tPing))
        #expect(pipes[1].tPing(0) == 2)
        #expect(log.take() == ["p2"])
        #expect(
            pipes[1].tPing.report(0).trace.steps.map(\.outcome) == [.skipped(.notRegistered), .ran])
        #expect(!pipes[0].removeHandler(for: \.tPing))
        _ = log.take()
    }

    @Test("A token cancels its handler once: the second cancel returns false")
    func tokenCancelsOnce() {
        let pipe = ActionPipe(name: "p")
        let token = pipe.on(\.tPing) { _ in 1 }
        #expect(token.isActive)
        #expect(token.cancel())
        #expect(!token.isActive)
        #expect(pipe.tPing(0) == nil)
        #expect(!pipe.handles(\.tPing))
        #expect(!token.cancel())
    }

    @Test("The token of a replaced handler cancels nothing")
    func staleTokenCancelsNothing() {
        let pipe = ActionPipe(name: "p")
        let old = pipe.on(\.tPing) { _ in 1 }
        let new = pipe.on(\.tPing) { _ in 2 }
        #expect(!old.isActive)
        #expect(new.isActive)
        #expect(old != new)

        #expect(!old.cancel())

        #expect(new.isActive)
        #expect(pipe.tPing(0) == 2)
        #expect(new.cancel())
        #expect(pipe.tPing(0) == nil)
    }

    @Test(
        "A token of a handler removed with removeHandler(for:) cancels nothing, even after re-registering"
    )
    func tokenAfterRemoveHandler() {
        let pipe = ActionPipe(name: "p")
        let token = pipe.on(\.tPing) { _ in 1 }
        #expect(pipe.removeHandler(for: \.tPing))
        #expect(!token.isActive)
        let later = pipe.on(\.tPing) { _ in 3 }
        #expect(!token.cancel())
        #expect(later.isActive)
        #expect(pipe.tPing(0) == 3)
    }

    @Test("A token cancels only its own action on its own pipe")
    func tokenIsScoped() throws {
        let pipes = try makeChain("p1", "p2")
        let ping1 = pipes[0].on(\.tPing) { _ in 1 }
        pipes[0].on(\.tOther) { _ in 10 }
        pipes[1].on(\.tPing) { process in (process.upstream ?? 0) + 100 }
        #expect(pipes[1].tPing(0) == 101)
        #expect(ping1.cancel())
        #expect(pipes[1].tPing(0) == 100)
        #expect(pipes[1].tOther(0) == 10)
    }

    @Test("A token keeps working after its pipe moves to another chain")
    func tokenAfterRecomposition() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        let token = pipes[1].on(\.tPing) { _ in 2 }
        #expect(pipes[1].removeFromChain())
        try pipes[2].append(pipes[1])
        #expect(pipes[0].tPing(0) == 2)
        #expect(token.cancel())
        #expect(pipes[0].tPing(0) == nil)
        #expect(pipes[1].tPing(0) == nil)
    }

    @Test("A token outliving its chain cancels nothing")
    func tokenOutlivingItsPipe() {
        let token: RegistrationToken
        do {
            let pipe = ActionPipe(name: "gone")
            token = pipe.on(\.tPing) { _ in 1 }
            #expect(token.isActive)
        }
        #expect(!token.isActive)
        #expect(!token.cancel())
        #expect(token.description.hasPrefix("gone.tPing#"))
    }

    @Test("Tokens: equal only to themselves, hashable, described as pipe.action#id")
    func tokenIdentity() {
        let pipe = ActionPipe(name: "p1")
        let first = pipe.on(\.tPing) { _ in 1 }
        let copy = first
        let other = pipe.on(\.tOther) { _ in 1 }
        #expect(first == copy)
        #expect(first != other)
        #expect(Set([first, copy, other]).count == 2)
        #expect(first.description.hasPrefix("p1.tPing#"))
        #expect(other.description.hasPrefix("p1.tOther#"))
        #expect(first.description != pipe.on(\.tPing) { _ in 2 }.description)
    }

    @Test("handles(_:) follows registration, replacement and removal")
    func handles() {
        let pipe = ActionPipe(name: "p")
        #expect(!pipe.handles(\.tPing))
        let token = pipe.on(\.tPing) { _ in 1 }
        #expect(pipe.handles(\.tPing))
        #expect(!pipe.handles(\.tOther))
        pipe.on(\.tPing) { _ in 2 }
        #expect(pipe.handles(\.tPing))
        #expect(!token.cancel())
        #expect(pipe.handles(\.tPing))
        #expect(pipe.removeHandler(for: \.tPing))
        #expect(!pipe.handles(\.tPing))
    }

    @Test("chainHandles(_:) (the original's respondsToSelector:) follows the whole chain")
    func chainHandlesFollowsTheChain() throws {
        let pipes = try makeChain("p1", "p2", "p3")
        #expect(!pipes[0].chainHandles(\.tSomeFunc3))

        pipes[1].on(\.tSomeFunc3) { _ in () }
        for pipe in pipes {
            #expect(pipe.chainHandles(\.tSomeFunc3))
        }
        #expect(!pipes[0].handles(\.tSomeFunc3))
        #expect(!pipes[0].chainHandles(\.tPing))

        let outsider = ActionPipe(name: "outsider")
        #expect(!outsider.chainHandles(\.tSomeFunc3))
        try pipes[2].append(outsider)
        #expect(outsider.chainHandles(\.tSomeFunc3))

        #expect(pipes[1].removeFromChain())
        #expect(!pipes[0].chainHandles(\.tSomeFunc3))
        #expect(!outsider.chainHandles(\.tSomeFunc3))
        #expect(pipes[1].chainHandles(\.tSomeFunc3))

        #expect(pipes[1].removeHandler(for: \.tSomeFunc3))
        #expect(!pipes[1].chainHandles(\.tSomeFunc3))
    }
}
