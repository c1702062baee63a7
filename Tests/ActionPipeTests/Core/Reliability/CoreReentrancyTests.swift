import ActionPipe
import Foundation
import Testing

/// Cancels a token when it goes away: the usual "subscription" object.
final class CancelsOnDeinit: Sendable {
    let token: RegistrationToken
    init(_ token: RegistrationToken) { self.token = token }
    deinit { token.cancel() }
}

@Suite("Re-entrancy: handlers that call, register and compose")
struct CoreReentrancyTests {
    @Test("A handler calls another action on the same chain", .hangBound)
    func handlerCallsAnotherAction() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tPing) { [weak other = pipes[1]] process in
            let nested = other?.tOther(process.arguments) ?? -1
            log.append("p1 got \(nested)")
            return nested + 1
        }
        pipes[1].on(\.tOther) { process in
            log.append("p2 other \(process.arguments)")
            return process.arguments * 10
        }
        #expect(pipes[1].tPing(4) == 41)
        #expect(log.all == ["p2 other 4", "p1 got 40"])
    }

    @Test(
        "A handler calls the same action recursively, with a depth guard", .hangBound)
    func recursiveCall() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tRecurse) { [weak head = pipes[0]] process in
            let depth = process.arguments
            log.append("p1 enter \(depth)")
            guard depth > 0 else { return 0 }
            let inner = head?.tRecurse(depth - 1) ?? -100
            log.append("p1 leave \(depth) inner \(inner)")
            return inner + 1
        }
        pipes[1].on(\.tRecurse) { process in
            log.append("p2 \(process.arguments) upstream \(show(process.upstream))")
            return (process.upstream ?? 0) * 10
        }
        #expect(pipes[1].tRecurse(2) == 110)
        #expect(
            log.all == [
                "p1 enter 2", "p1 enter 1", "p1 enter 0",
                "p2 0 upstream 0",
                "p1 leave 1 inner 0",
                "p2 1 upstream 1",
                "p1 leave 2 inner 10",
                "p2 2 upstream 11",
            ])
    }

    @Test("Deep recursion through the chain, up to the nesting limit", .hangBound)
    func deepRecursion() {
        let pipe = ActionPipe(name: "p")
        pipe.on(\.tRecurse) { [weak pipe] process in
            process.arguments == 0 ? 0 : (pipe?.tRecurse(process.arguments - 1) ?? -1000) + 1
        }
        let deepest = NestingLimitError.depthLimit - 1
        #expect(pipe.tRecurse(deepest) == deepest)
    }

    @Test(
        "A handler registers a new handler: seen by the next call, not the current one",
        .hangBound)
    func handlerRegistersAHandler() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tPing) { [weak later = pipes[1]] _ in
            log.append("p1")
            later?.on(\.tPing) { _ in
                log.append("p2 (registered by p1)")
                return 2
            }
            return 1
        }
        #expect(pipes[0].tPing(0) == 1)
        #expect(log.take() == ["p1"])
        #expect(pipes[0].tPing(0) == 2)
        #expect(log.take() == ["p1", "p2 (registered by p1)"])
    }

    @Test("A handler replaces itself: the current call keeps the old one", .hangBound)
    func handlerReplacesItself() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tPing) { [weak p1 = pipes[0]] _ in
            log.append("old p1")
            p1?.on(\.tPing) { _ in
                log.append("new p1")
                return 10
            }
            return 1
        }
        pipes[1].on(\.tPing) { process in
            log.append("p2 upstream \(show(process.upstream))")
            return process.upstream
        }
        #expect(pipes[1].tPing(0) == 1)
        #expect(log.take() == ["old p1", "p2 upstream 1"])
        #expect(pipes[1].tPing(0) == 10)
        #expect(log.take() == ["new p1", "p2 upstream 10"])
    }

    @Test(
        "A handler recomposes its own chain: the call finishes on its snapshot, the next sees the change",
        .hangBound)
    func handlerRecomposesItsChain() throws {
        let pipes = try makeChain("p1", "p2")
        let p3 = ActionPipe(name: "p3")
        let log = Log()
        registerPings(on: [pipes[1], p3], log: log)
        let callNumber = Counter()
        pipes[0].on(\.tPing) { [weak p1 = pipes[0], weak p2 = pipes[1], weak p3] _ in
            callNumber.increment()
            log.append("p1 call \(callNumber.value)")
            guard let p1, let p2, let p3 else { return nil }
            switch callNumber.value {
            case 1:
                do {
                    try p1.append(p3)
                } catch {
                    log.append("append failed: \(error)")
                }
            case 2:
                log.append("removed p2: \(p2.removeFromChain())")
            case 3:
                do {
                    try p3.append(p1)
                    log.append("cycle accepted")
                } catch {
                    log.append("cycle rejected")
                }
            default:
                break
            }
            log.append("chain now \(p1.chainNames)")
            return nil
        }

        pipes[0].tPing(0)
        #expect(log.take() == ["p1 call 1", "chain now [\"p1\", \"p2\", \"p3\"]", "p2"])
        pipes[0].tPing(0)
        #expect(
            log.take() == [
                "p1 call 2", "removed p2: true", "chain now [\"p1\", \"p3\"]", "p2", "p3",
            ])
        p3.tPing(0)
        #expect(log.take() == ["p1 call 3", "cycle rejected", "chain now [\"p1\", \"p3\"]", "p3"])
        pipes[1].tPing(0)
        #expect(log.take() == ["p2"])
    }

    @Test(
        "A handler cancels its own token: it runs this time, not the next", .hangBound)
    func handlerCancelsItsOwnToken() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        let tokenBox = Box<RegistrationToken?>(nil)
        tokenBox.set(
            pipes[0].on(\.tPing) { _ in
                let cancelled = tokenBox.value?.cancel() ?? false
                log.append("p1 cancelled itself: \(cancelled)")
                return 1
            })
        pipes[1].on(\.tPing) { process in
            log.append("p2 upstream \(show(process.upstream))")
            return 2
        }
        #expect(pipes[0].tPing(0) == 2)
        #expect(log.take() == ["p1 cancelled itself: true", "p2 upstream 1"])
        #expect(pipes[0].tPing(0) == 2)
        #expect(log.take() == ["p2 upstream nil"])
        #expect(tokenBox.value?.isActive == false)
    }

    @Test(
        "A handler removes a later handler: the current call still runs it", .hangBound
    )
    func handlerRemovesALaterHandler() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tPing) { [weak p2 = pipes[1]] _ in
            log.append("p1 removed p2's handler: \(p2?.removeHandler(for: \.tPing) ?? false)")
            return 1
        }
        pipes[1].on(\.tPing) { _ in
            log.append("p2")
            return 2
        }
        #expect(pipes[0].tPing(0) == 2)
        #expect(log.take() == ["p1 removed p2's handler: true", "p2"])
        #expect(pipes[0].tPing(0) == 1)
        #expect(log.take() == ["p1 removed p2's handler: false"])
    }

    @Test(
        "A handler reads the chain, its tokens and makes reports without deadlock",
        .hangBound)
    func handlerUsesEveryReadingAPI() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        let tokenBox = Box<RegistrationToken?>(nil)
        tokenBox.set(
            pipes[1].on(\.tOther) { _ in 5 })
        pipes[0].on(\.tPing) { [weak p1 = pipes[0], weak p2 = pipes[1]] _ in
            guard let p1, let p2 else { return nil }
            log.append("names \(p1.chainNames)")
            log.append("handles \(p2.handles(\.tOther))")
            log.append("active \(tokenBox.value?.isActive ?? false)")
            log.append("same chain \(p1.isInSameChain(as: p2))")
            log.append("report \(p2.tOther.report(1).trace)")
            return 1
        }
        #expect(pipes[0].tPing(0) == 1)
        #expect(
            log.all == [
                "names [\"p1\", \"p2\"]", "handles true", "active true", "same chain true",
                "report tOther(1): p1 skipped (not registered) → p2 ran",
            ])
    }

    @Test(
        "A handler uses its trigger right away: a nested call from the head",
        .hangBound)
    func handlerUsesItsTriggerSynchronously() throws {
        let pipes = try makeChain("p1", "p2")
        let log = Log()
        pipes[0].on(\.tLoad) { process in
            log.append("p1 \(show(process.state))")
            return nil
        }
        pipes[1].on(\.tLoad).state(.start).handle { process in
            let nested = process.trigger.call(state: .success, "nested")
            log.append("p2 start got \(show(nested))")
            return "start"
        }
        #expect(pipes[1].with(state: .start).tLoad("x") == "start")
        #expect(log.all == ["p1 start", "p1 success", "p2 start got nil"])
    }

    @Test(
        "An object captured by a handler may use the pipe in its deinit when the handler is removed",
        .hangBound)
    func captureDeinitMayUseThePipe() async {
        await #expect(processExitsWith: .success) {
            let pipe = ActionPipe(name: "p")
            let other = pipe.on(\.tOther) { _ in 1 }
            do {
                let subscription = CancelsOnDeinit(other)
                pipe.on(\.tPing) { _ in
                    _ = subscription
                    return 2
                }
            }
            // Removing the handler releases `subscription`, whose deinit cancels `other`.
            pipe.removeHandler(for: \.tPing)
            if pipe.handles(\.tOther) { exit(1) }
        }
    }

    @Test(
        "A strongly held target may use the pipe in its deinit when its token is cancelled",
        .hangBound)
    func strongTargetDeinitMayUseThePipe() async {
        await #expect(processExitsWith: .success) {
            let pipe = ActionPipe(name: "p")
            let other = pipe.on(\.tOther) { _ in 1 }
            let token = pipe.on(\.tPing).handle(
                owner: CancelsOnDeinit(other), retention: .strong
            ) { _, _ in 2 }
            token.cancel()
            if pipe.handles(\.tOther) { exit(1) }
        }
    }

}
