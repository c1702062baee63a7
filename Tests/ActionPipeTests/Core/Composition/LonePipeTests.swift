import ActionPipe
import Foundation
import Testing

/// A pipe that was never composed has no chain object: it reads a snapshot of its own
/// registrations, cached in itself. These specs check what that must not change: lifetimes,
/// composition in every combination, tokens, triggers, and calls racing with changes.
@Suite("A pipe alone: no chain object, same behaviour")
struct LonePipeTests {
    @Test("A pipe alone that was called frees its handlers' captures when it is dropped")
    func droppedAfterACall() {
        weak var weakObject: Tracked?
        weak var weakPipe: ActionPipe?
        do {
            let object = Tracked("captured")
            weakObject = object
            let pipe = ActionPipe(name: "alone")
            weakPipe = pipe
            pipe.on(\.tPing) { process in process.arguments + object.name.count }
            #expect(pipe.tPing(1) == 9)  // the pipe now caches a snapshot that holds it
            #expect(pipe.chainHandles(\.tPing))
        }
        #expect(weakPipe == nil)
        #expect(weakObject == nil)
    }

    @Test("Pipes alone join in every combination, leave, and join again; calls follow")
    func composeEveryWay() throws {
        let log = Log()
        let a = ActionPipe(name: "a")
        let b = ActionPipe(name: "b")
        let c = ActionPipe(name: "c")
        for pipe in [a, b, c] {
            let name = pipe.name
            pipe.on(\.tPing) { process in
                log.append(name)
                return process.arguments
            }
            #expect(pipe.tPing(0) == 0)  // each caches its own snapshot first
        }
        #expect(log.take() == ["a", "b", "c"])

        try a.append(b)  // alone + alone
        #expect(a.chainNames == ["a", "b"])
        #expect(b.isInSameChain(as: a))
        #expect(!c.isInSameChain(as: a))
        #expect(throws: ChainError.self) { try b.append(a) }
        #expect(throws: ChainError.self) { try c.append(c) }
        _ = b.tPing(1)
        #expect(log.take() == ["a", "b"])

        try c.append(a)  // alone + chain
        #expect(b.chainNames == ["c", "a", "b"])
        _ = a.tPing(2)
        #expect(log.take() == ["c", "a", "b"])

        #expect(a.removeFromChain())  // back to alone
        #expect(a.chainNames == ["a"])
        #expect(c.chainNames == ["c", "b"])
        #expect(!a.removeFromChain(), "a pipe alone has no chain to leave")
        _ = a.tPing(3)
        #expect(log.take() == ["a"])

        try b.append(a)  // chain + alone
        #expect(a.chainNames == ["c", "b", "a"])
        _ = c.tPing(4)
        #expect(log.take() == ["c", "b", "a"])
    }

    @Test("A token of a pipe alone cancels, and the next call sees it; a new handler too")
    func tokensOfAPipeAlone() {
        let pipe = ActionPipe(name: "alone")
        let token = pipe.on(\.tPing) { process in process.arguments * 2 }
        #expect(pipe.tPing(2) == 4)
        #expect(token.isActive)
        #expect(token.cancel())
        #expect(!token.isActive)
        #expect(pipe.tPing(2) == nil)
        pipe.on(\.tPing) { process in process.arguments * 3 }
        #expect(pipe.tPing(2) == 6)
        #expect(!token.cancel(), "a stale token removes nothing")
        #expect(pipe.tPing(2) == 6)
    }

    @Test("A trigger of a pipe alone does nothing once the pipe is gone, and frees it")
    func triggerOfAPipeAloneAfterItIsGone() async throws {
        let saved = Box<ActionTrigger<ActionKind.Async, Int, String>?>(nil)
        weak var weakObject: Tracked?
        do {
            let object = Tracked("object")
            weakObject = object
            let pipe = ActionPipe(name: "alone")
            pipe.on(\.taOwned).handle { process in
                saved.set(process.trigger)
                return "\(object.name) \(process.arguments)"
            }
            #expect(try await pipe.taOwned(1) == "object 1")
            let trigger = try #require(saved.value)
            #expect(try await trigger(2) == "object 2", "the trigger calls the live pipe")
        }
        let trigger = try #require(saved.value)
        saved.set(nil)
        #expect(try await trigger(3) == nil)
        #expect(!trigger.isAlive)
        #expect(weakObject == nil)
    }

    @Test("Calls on a pipe alone while another thread registers and cancels: no lost state")
    func callsRacingWithChanges() async {
        let pipe = ActionPipe(name: "alone")
        let stop = Counter()
        let seen = Counter()
        let wrong = Counter()
        pipe.on(\.tPing) { process in process.arguments + 1 }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<2_000 {
                    let token = pipe.on(\.tPing) { process in process.arguments + 2 }
                    if round.isMultiple(of: 2) { token.cancel() }
                    pipe.on(\.tPing) { process in process.arguments + 1 }
                }
                stop.increment()
            }
            group.addTask {
                // At least 1,000 reads, and on until the writer is done: how many overlap
                // with the writes depends on the machine, so only their results are checked.
                while seen.value < 1_000 || stop.value == 0 {
                    let result = pipe.tPing(10)
                    if result != nil, result != 11, result != 12 { wrong.increment() }
                    seen.increment()
                }
            }
        }
        #expect(wrong.value == 0)
        #expect(pipe.tPing(10) == 11, "the last registration is the one that answers")
    }
}
