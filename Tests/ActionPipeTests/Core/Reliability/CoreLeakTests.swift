import ActionPipe
import Testing

@Suite("Lifetimes and leaks")
struct CoreLeakTests {
    @Test("Dropping every pipe of a chain frees the handlers' captured objects")
    func droppingAllPipesFreesCaptures() throws {
        weak var weakObject: Tracked?
        weak var weakPipe1: ActionPipe?
        weak var weakPipe2: ActionPipe?
        do {
            let object = Tracked("captured")
            weakObject = object
            let pipes = try makeChain("p1", "p2")
            weakPipe1 = pipes[0]
            weakPipe2 = pipes[1]
            pipes[0].on(\.tPing) { _ in object.name.count }
            pipes[1].on(\.tLoad) { _ in object.name }
            #expect(pipes[1].tPing(0) == 8)
        }
        #expect(weakPipe1 == nil)
        #expect(weakPipe2 == nil)
        #expect(weakObject == nil)
    }

    @Test("A dropped pipe handle stays in its chain and keeps running while others live")
    func droppedMemberKeepsRunning() throws {
        let log = Log()
        weak var weakObject: Tracked?
        weak var weakMiddle: ActionPipe?
        var first: ActionPipe? = ActionPipe(name: "p1")
        var last: ActionPipe? = ActionPipe(name: "p3")
        do {
            let middle = ActionPipe(name: "p2")
            weakMiddle = middle
            let object = Tracked("p2's object")
            weakObject = object
            middle.on(\.tPing) { _ in
                log.append(object.name)
                return 2
            }
            try first?.append(middle).append(try #require(last))
        }
        registerPings(on: [try #require(first), try #require(last)], log: log)

        #expect(weakMiddle == nil)  // the handle is gone...
        #expect(weakObject != nil)  // ...but its member and handler live in the chain
        #expect(first?.chainNames == ["p1", "p2", "p3"])
        #expect(last?.tPing(0) == 2)
        #expect(log.take() == ["p1", "p2's object", "p3"])
        #expect(first?.tPing.report(0).trace.steps.map(\.pipe) == ["p1", "p2", "p3"])
        _ = log.take()

        // Dropping one more handle: the chain still lives through the last one.
        first = nil
        #expect(last?.tPing(0) == 2)
        #expect(log.take() == ["p1", "p2's object", "p3"])
        #expect(weakObject != nil)

        // Dropping the last handle frees everything.
        last = nil
        #expect(weakObject == nil)
    }

    @Test("removeFromChain on the last live handle frees the dropped members")
    func removingTheLastLiveHandleFreesDroppedMembers() throws {
        weak var weakObject: Tracked?
        let survivor = ActionPipe(name: "survivor")
        do {
            let dropped = ActionPipe(name: "dropped")
            let object = Tracked("dropped's object")
            weakObject = object
            dropped.on(\.tPing) { _ in object.name.count }
            try dropped.append(survivor)
        }
        #expect(weakObject != nil)
        #expect(survivor.tPing(0) == 16)
        #expect(survivor.removeFromChain())
        #expect(weakObject == nil)
        #expect(survivor.chainNames == ["survivor"])
        #expect(survivor.tPing(0) == nil)
    }

    @Test("A pipe removed from its chain and dropped frees its handlers; the chain keeps going")
    func removedAndDroppedPipeIsFreed() throws {
        let pipes = try makeChain("p1", "p3")
        weak var weakObject: Tracked?
        do {
            let p2 = ActionPipe(name: "p2")
            let object = Tracked("p2's object")
            weakObject = object
            p2.on(\.tPing) { _ in object.name.count }
            try pipes[0].append(p2)
            #expect(pipes[1].chainNames == ["p1", "p3", "p2"])
            #expect(p2.removeFromChain())
        }
        #expect(weakObject == nil)
        #expect(pipes[0].chainNames == ["p1", "p3"])
    }

    @Test("Replacing, removing or cancelling a handler frees what it captured")
    func removedHandlersAreFreed() throws {
        let pipes = try makeChain("p1", "p2")
        weak var replaced: Tracked?
        weak var removed: Tracked?
        weak var cancelled: Tracked?
        let token: RegistrationToken
        do {
            let a = Tracked("a")
            let b = Tracked("b")
            let c = Tracked("c")
            replaced = a
            removed = b
            cancelled = c
            pipes[0].on(\.tPing) { _ in a.name.count }
            pipes[1].on(\.tOther) { _ in b.name.count }
            token = pipes[1].on(\.tLoad) { _ in c.name }
            #expect(pipes[0].tPing(0) == 1)
        }
        #expect(replaced != nil)
        pipes[0].on(\.tPing) { _ in 0 }
        #expect(replaced == nil)
        #expect(removed != nil)
        pipes[0].removeHandler(for: \.tOther)  // another pipe's handler: nothing happens
        #expect(removed != nil)
        pipes[1].removeHandler(for: \.tOther)
        #expect(removed == nil)
        #expect(cancelled != nil)
        token.cancel()
        #expect(cancelled == nil)
    }

    @Test("A weak-target handler does not keep its target alive")
    func weakTargetIsNotRetained() {
        let pipe = ActionPipe(name: "p")
        weak var weakRobot: TestRobot?
        do {
            let robot = TestRobot("r", log: Log())
            weakRobot = robot
            pipe.on(\.tPing).handle(owner: robot, method: TestRobot.ping)
            pipe.on(\.tOther).handle(owner: robot) { robot, process in
                robot.ping(process.arguments)
            }
            #expect(pipe.tPing(1) == 2)
        }
        #expect(weakRobot == nil)
    }

    @Test("A handler capturing its own pipe weakly makes no retain cycle")
    func weakSelfCaptureMakesNoCycle() throws {
        weak var weakPipe: ActionPipe?
        weak var weakObject: Tracked?
        do {
            let pipe = ActionPipe(name: "self-referencing")
            weakPipe = pipe
            let object = Tracked("o")
            weakObject = object
            pipe.on(\.tRecurse) { [weak pipe] process in
                _ = object
                return process.arguments == 0 ? 0 : pipe?.tRecurse(process.arguments - 1)
            }
            let partner = ActionPipe(name: "partner")
            partner.on(\.tOther) { [weak pipe] process in pipe?.tRecurse(process.arguments) }
            try pipe.append(partner)
            #expect(partner.tOther(3) == 0)
        }
        #expect(weakPipe == nil)
        #expect(weakObject == nil)
    }

    @Test("An ActionTrigger does not keep the chain alive")
    func triggerDoesNotRetainTheChain() throws {
        let saved = Box<ActionTrigger<ActionKind.Sync, Int, Int>?>(nil)
        weak var weakPipe: ActionPipe?
        weak var weakObject: Tracked?
        do {
            let pipes = try makeChain("p1", "p2")
            weakPipe = pipes[0]
            let object = Tracked("o")
            weakObject = object
            pipes[1].on(\.tPing) { process in
                saved.set(process.trigger)
                return object.name.count
            }
            #expect(pipes[0].tPing(0) == 1)
            #expect(saved.value?.isAlive == true)
        }
        #expect(weakPipe == nil)
        #expect(weakObject == nil)
        #expect(saved.value?.isAlive == false)
        #expect(saved.value?(0) == nil)
    }

    @Test("A RegistrationToken does not keep its pipe alive")
    func tokenDoesNotRetainThePipe() {
        weak var weakPipe: ActionPipe?
        weak var weakObject: Tracked?
        let token: RegistrationToken
        do {
            let pipe = ActionPipe(name: "p")
            weakPipe = pipe
            let object = Tracked("o")
            weakObject = object
            token = pipe.on(\.tPing) { _ in object.name.count }
        }
        #expect(weakPipe == nil)
        #expect(weakObject == nil)
        #expect(!token.cancel())
    }

    @Test("A strong target is freed with its chain")
    func strongTargetFreedWithTheChain() throws {
        weak var weakRobot: TestRobot?
        do {
            let pipes = try makeChain("p1", "p2")
            let robot = TestRobot("r", log: Log())
            weakRobot = robot
            pipes[1].on(\.tPing).handle(owner: robot, retention: .strong, method: TestRobot.ping)
        }
        #expect(weakRobot == nil)
    }

    @Test("Composing many pipes and dropping them frees them all")
    func manyPipesFreed() throws {
        let alive = Counter()
        final class Watched: Sendable {
            let counter: Counter
            init(_ counter: Counter) {
                self.counter = counter
                counter.increment()
            }
            deinit { counter.decrement() }
        }
        do {
            let pipes = (0..<30).map { ActionPipe(name: "n\($0)") }
            for pipe in pipes {
                let watched = Watched(alive)
                pipe.on(\.tPing) { _ in
                    _ = watched
                    return 1
                }
            }
            for pipe in pipes.dropFirst() { try pipes[0].append(pipe) }
            #expect(pipes[10].removeFromChain())
            try pipes[11].append(pipes[10])
            #expect(pipes[29].tPing.report(0).runCount == 30)
            #expect(alive.value == 30)
        }
        #expect(alive.value == 0)
    }
}
