import ActionPipe
import Testing

/// The owner pattern: an object keeps its pipes as properties and registers itself, held
/// weakly, as the target of their handlers.
private final class Document: Sendable {
    let head = ActionPipe(name: "document.head")
    let store = ActionPipe(name: "document.store")
    let resource = Tracked("document resource")
    let runs = Counter()

    init(captured: Tracked, arrived: TAGate? = nil, gate: TAGate? = nil) throws {
        try head.append(store)
        head.on(\.taOwned).handle(owner: self) { document, process in
            document.runs.increment()
            await arrived?.open()
            await gate?.wait()
            return "\(document.resource.name) \(process.arguments)"
        }
        store.on(\.taOwned).upstreamNotNil().handle { process in
            await Task.yield()
            return "\(process.upstream ?? "") stored with \(captured.name)"
        }
        store.on(\.taStep).handle(owner: self, method: Document.count)
    }

    func count(_ value: Int) async throws -> Int? {
        await Task.yield()
        runs.increment()
        return value + runs.value
    }
}

/// A target that holds its pipe strongly and registers its own async handlers on it.
private final class Controller: ActionResponder {
    let pipe = ActionPipe(name: "controller")
    let loads = Counter()

    init() {
        pipe.register(self)
        pipe.on(\.taOwned).handle(owner: self) { controller, process in
            controller.loads.increment()
            await Task.yield()
            return "controller \(process.arguments)"
        }
        pipe.on(\.taStep).handle(owner: self, method: Controller.step)
    }

    func step(_ value: Int) async throws -> Int? { value * 2 }

    func title(_ id: Int) async throws -> String? { "title \(id)" }

    static func registerActions(in registrar: inout ActionRegistrar<Controller>) {
        registrar.add(\.taResponder, method: Controller.title)
        registrar.add(\.taInner) { controller, process in
            await Task.yield()
            return "inner \(process.arguments) \(controller.loads.value)"
        }
    }
}

/// A weak reference to a pipe, set by a task before a gate opens and read after it.
private final class WeakPipeReference: @unchecked Sendable {
    weak var object: ActionPipe?
}

@Suite("Async lifetimes: owners, targets, in-flight calls, triggers")
struct AsyncLifetimeTests {
    @Test("Dropping the owner frees its pipes, handlers, target and captured objects")
    func ownerPattern() async throws {
        weak var weakDocument: Document?
        weak var weakHead: ActionPipe?
        weak var weakStore: ActionPipe?
        weak var weakResource: Tracked?
        weak var weakCaptured: Tracked?
        do {
            let captured = Tracked("captured")
            weakCaptured = captured
            let document = try Document(captured: captured)
            weakDocument = document
            weakHead = document.head
            weakStore = document.store
            weakResource = document.resource
            #expect(
                try await document.store.taOwned(1)
                    == "document resource 1 stored with captured")
            #expect(try await document.head.taStep(10) == 12)
            #expect(document.runs.value == 2)
        }
        #expect(weakDocument == nil)
        #expect(weakHead == nil)
        #expect(weakStore == nil)
        #expect(weakResource == nil)
        #expect(weakCaptured == nil, "the store's handler, which captured it, is freed")
    }

    @Test("A target holding its pipe strongly makes no cycle through its async handlers")
    func targetHoldingItsPipe() async throws {
        weak var weakController: Controller?
        weak var weakPipe: ActionPipe?
        do {
            let controller = Controller()
            weakController = controller
            weakPipe = controller.pipe
            #expect(try await controller.pipe.taOwned(1) == "controller 1")
            #expect(try await controller.pipe.taStep(4) == 8)
            #expect(try await controller.pipe.taResponder(5) == "title 5")
            #expect(try await controller.pipe.taInner(6) == "inner 6 1")
        }
        #expect(weakController == nil)
        #expect(weakPipe == nil)
    }

    @Test("An in-flight async call keeps the chain alive until it returns; then all is freed")
    func inFlightCallKeepsTheChain() async throws {
        let arrived = TAGate()
        let gate = TAGate()
        weak var weakHead: ActionPipe?
        weak var weakTail: ActionPipe?
        weak var weakCaptured: Tracked?
        var call: Task<String?, any Error>?
        do {
            let pipes = try makeChain("head", "tail")
            weakHead = pipes[0]
            weakTail = pipes[1]
            let captured = Tracked("tail's object")
            weakCaptured = captured
            pipes[0].on(\.taOwned) { process in
                await arrived.open()
                await gate.wait()
                return "head \(process.arguments)"
            }
            pipes[1].on(\.taOwned) { process in
                "\(process.upstream ?? "nil") + \(captured.name)"
            }
            let head = pipes[0]
            call = Task { try await head.taOwned(1) }
        }
        await arrived.wait()
        // The test holds nothing of the chain now; only the call does.
        #expect(weakTail == nil, "the tail's handle is gone, its member lives in the chain")
        #expect(weakHead != nil, "the call holds the pipe it was made on")
        #expect(weakCaptured != nil, "the tail's handler is still in the chain")
        await gate.open()
        #expect(try await call?.value == "head 1 + tail's object")
        call = nil
        #expect(weakHead == nil)
        #expect(weakCaptured == nil)
    }

    @Test("An async call on a pipe nothing else holds keeps it and its chain until it returns")
    func inFlightCallOnAnUnheldPipe() async throws {
        let arrived = TAGate()
        let gate = TAGate()
        let weakPipe = WeakPipeReference()
        let reached = Box<String?>(nil)
        /// A pipe that only the call made on it refers to.
        @Sendable func unheldPipe() -> ActionPipe {
            let pipe = ActionPipe(name: "unheld")
            pipe.on(\.taOwned) { process in
                if process.state == .success { return "again" }
                await arrived.open()
                await gate.wait()
                // A trigger calls only while the pipe or its chain lives.
                reached.set(try await process.trigger.call(state: .success, 5))
                return "unheld \(process.arguments)"
            }
            weakPipe.object = pipe
            return pipe
        }
        // The bound action, and with it the pipe, is handed to the call.
        let call = Task {
            let bound = unheldPipe().taOwned
            return try await (consume bound)(4)
        }
        await arrived.wait()
        #expect(weakPipe.object != nil, "the call in flight holds its pipe")
        await gate.open()
        #expect(try await call.value == "unheld 4")
        #expect(reached.value == "again", "the chain was alive while the handler ran")
        #expect(weakPipe.object == nil, "released when the call returned")
    }

    @Test("A weak target stays alive while its handler is suspended, and is freed after")
    func weakTargetAliveWhileItsHandlerWorks() async throws {
        let arrived = TAGate()
        let gate = TAGate()
        let pipe = ActionPipe(name: "p")
        pipe.on(\.taOwned) { process in "\(process.upstream ?? "nil") via p" }
        weak var weakDocument: Document?
        var call: Task<String?, any Error>?
        do {
            let document = try Document(
                captured: Tracked("captured"), arrived: arrived, gate: gate)
            weakDocument = document
            try document.store.append(pipe)  // document.head → document.store → p
            call = Task { try await pipe.taOwned(2) }
            await arrived.wait()
        }
        // Nothing references the document now but the handler that is running with it.
        #expect(weakDocument != nil, "a running handler keeps its weakly held target")
        await gate.open()
        #expect(try await call?.value == "document resource 2 stored with captured via p")
        #expect(weakDocument == nil, "once its handler returned, the target is released")

        let report = await pipe.taOwned.report(3)
        #expect(report.value == "nil via p")
        #expect(
            report.trace.steps.map(\.outcome) == [
                .skipped(.targetReleased), .skipped(.upstreamNil), .ran,
            ])
    }

    @Test("A call made through a trigger finishes if the chain is dropped meanwhile, then frees it")
    func triggerCallInFlightWhileTheChainIsDropped() async throws {
        let saved = Box<ActionTrigger<ActionKind.Async, Int, String>?>(nil)
        let arrived = TAGate()
        let gate = TAGate()
        weak var weakCaptured: Tracked?
        weak var weakPipe: ActionPipe?
        var keeper: ActionPipe?
        do {
            let pipes = try makeChain("requester", "view")
            keeper = pipes[1]
            weakPipe = pipes[0]
            let captured = Tracked("view's object")
            weakCaptured = captured
            pipes[0].on(\.taOwned).state(.start).handle { process in
                saved.set(process.trigger)
                return "started"
            }
            pipes[1].on(\.taOwned).state(.success).handle { process in
                await arrived.open()
                await gate.wait()
                return "\(captured.name) shows \(process.arguments)"
            }
            #expect(try await pipes[0].with(state: .start).taOwned(1) == "started")
        }
        let trigger = try #require(saved.value)
        let call = Task { try await trigger.call(state: .success, 2) }
        await arrived.wait()
        #expect(keeper?.chainNames == ["requester", "view"])
        keeper = nil  // the last pipe handle: the chain is gone, the call is not
        #expect(weakPipe == nil)
        #expect(!trigger.isAlive, "a call would do nothing, though one still runs")
        #expect(weakCaptured != nil, "the call in flight still runs the view's handler")
        #expect(try await trigger.call(state: .success, 3) == nil, "a new call does nothing")
        await gate.open()
        #expect(try await call.value == "view's object shows 2")
        #expect(weakCaptured == nil, "once the call returned, the handlers are freed")
        #expect(!trigger.isAlive)
    }

    @Test("A pending async trigger does not keep the chain alive: isAlive false, call nil")
    func pendingTriggerDoesNotKeepTheChain() async throws {
        let saved = Box<ActionTrigger<ActionKind.Async, Int, String>?>(nil)
        let runs = TACounter()
        weak var weakCaptured: Tracked?
        weak var weakDocumentHead: ActionPipe?
        do {
            let captured = Tracked("captured")
            weakCaptured = captured
            let document = try Document(captured: captured)
            weakDocumentHead = document.head
            let extra = ActionPipe(name: "extra")
            extra.on(\.taOwned) { process in
                saved.set(process.trigger)
                await runs.increment()
                return process.upstream
            }
            try document.store.append(extra)
            #expect(
                try await document.head.taOwned(1) == "document resource 1 stored with captured")
            let trigger = try #require(saved.value)
            #expect(trigger.isAlive)
            #expect(try await trigger(2) == "document resource 2 stored with captured")
        }
        #expect(weakDocumentHead == nil)
        #expect(weakCaptured == nil)
        let trigger = try #require(saved.value)
        #expect(!trigger.isAlive)
        #expect(try await trigger.call(state: .success, 3) == nil)
        #expect(try await trigger(4) == nil)
        #expect(await runs.value == 2)
    }
}
