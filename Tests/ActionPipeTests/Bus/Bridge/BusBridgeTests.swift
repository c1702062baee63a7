import ActionPipe
import Synchronization
import Testing

@Suite("Bus: bridges between buses, through a transport", .hangBound)
struct BusBridgeTests {
    private let orders = BusTopic(anySubtypeOf: BridgeOrder.self)

    /// Two buses on one network, each bridging `orders`, each run in a task.
    private func pair(_ network: BridgeTestNetwork) -> (BusBridge, BusBridge) {
        let a = BusBridge(
            bus: EventBus(name: "a"), transport: network.transport(), instance: BusInstanceID("a"))
        let b = BusBridge(
            bus: EventBus(name: "b"), transport: network.transport(), instance: BusInstanceID("b"))
        a.bridge(orders)
        b.bridge(orders)
        return (a, b)
    }

    @Test("events cross both ways, each once, in publish order, marked remote; none echoes back")
    func bothWays() async throws {
        let network = BridgeTestNetwork()
        let (a, b) = pair(network)
        let seenByA = TestLock<[(Int, BusOrigin)]>([])
        let seenByB = TestLock<[(Int, BusOrigin)]>([])
        let tally = Tally()
        let tokens = [
            a.bus.subscribe(orders) { order in
                seenByA.withLock { $0.append((order.id, BusOrigin.current)) }
                tally.increment()
            },
            b.bus.subscribe(orders) { order in
                seenByB.withLock { $0.append((order.id, BusOrigin.current)) }
                tally.increment()
            },
        ]
        let runs = [Task { try await a.run() }, Task { try await b.run() }]
        for id in 1...50 { a.bus.publish(BridgeOrder(subtype: .placed, id: id)) }
        for id in 101...150 { b.bus.publish(BridgeOrder(subtype: .cancelled, id: id)) }
        // Each bus sees its own 50 (local) and the other's 50 (remote).
        await tally.wait(for: 200)
        for run in runs { run.cancel() }
        for run in runs { try await run.value }
        let byA = seenByA.withLock { $0 }
        let byB = seenByB.withLock { $0 }
        #expect(byA.filter { $0.1 == .local }.map(\.0) == Array(1...50))
        #expect(byA.filter { $0.1 == .remote(BusInstanceID("b")) }.map(\.0) == Array(101...150))
        #expect(byB.filter { $0.1 == .local }.map(\.0) == Array(101...150))
        #expect(byB.filter { $0.1 == .remote(BusInstanceID("a")) }.map(\.0) == Array(1...50))
        #expect(byA.count == 100 && byB.count == 100)
        // No echo: exactly the 100 local publishes were sent, each once.
        #expect(network.sent.count == 100)
        #expect(
            network.sent.filter { $0.sender == BusInstanceID("a") }.map(\.sequence)
                == Array(1...50))
        withExtendedLifetime(tokens) {}
    }

    @Test("only bridged topics cross; an exact-subtype topic sends and accepts only that subtype")
    func onlySelectedTopics() async throws {
        let network = BridgeTestNetwork()
        let a = BusBridge(bus: EventBus(name: "a"), transport: network.transport())
        let b = BusBridge(bus: EventBus(name: "b"), transport: network.transport())
        a.bridge(BusTopic(BridgeOrder.self, .placed))
        b.bridge(BusTopic(BridgeOrder.self, .placed))
        let received = TestLock<[Int]>([])
        let notes = TestLock(0)
        let tally = Tally()
        let tokens = [
            b.bus.subscribe(orders) { order in
                received.withLock { $0.append(order.id) }
                tally.increment()
            },
            b.bus.subscribe(BusTopic(BridgeNote.self)) { _ in notes.withLock { $0 += 1 } },
        ]
        let runs = [Task { try await a.run() }, Task { try await b.run() }]
        a.bus.publish(BridgeNote(text: "stays"))
        a.bus.publish(BridgeOrder(subtype: .cancelled, id: 1))
        a.bus.publish(BridgeOrder(subtype: .placed, id: 2))
        // A cancelled order sent by some other instance that bridges more is not accepted.
        network.broadcast(
            BusMessage(
                topic: "BridgeOrder", sender: BusInstanceID("other"), sequence: 1,
                payload: Array(#"{"subtype":"cancelled","id":3}"#.utf8)))
        network.broadcast(
            BusMessage(
                topic: "BridgeOrder", sender: BusInstanceID("other"), sequence: 2,
                payload: Array(#"{"subtype":"placed","id":4}"#.utf8)))
        await tally.wait(for: 2)
        for run in runs { run.cancel() }
        for run in runs { try await run.value }
        // a's send and the injected messages race: each arrives once, in either order.
        #expect(received.withLock { $0 }.sorted() == [2, 4])
        #expect(notes.withLock { $0 } == 0)
        #expect(network.sent.map(\.topic) == ["BridgeOrder", "BridgeOrder", "BridgeOrder"])
        withExtendedLifetime(tokens) {}
    }

    @Test("a malformed payload is reported to Diagnostics and skipped; the bridge goes on")
    func malformed() async throws {
        let network = BridgeTestNetwork()
        let (a, b) = pair(network)
        let received = TestLock<[Int]>([])
        let tally = Tally()
        let token = b.bus.subscribe(orders) { order in
            received.withLock { $0.append(order.id) }
            tally.increment()
        }
        let reported = try await Diagnostics.record {
            let runs = [Task { try await a.run() }, Task { try await b.run() }]
            network.broadcast(
                BusMessage(
                    topic: "BridgeOrder", sender: BusInstanceID("x"), sequence: 1,
                    payload: Array("not json".utf8)))
            a.bus.publish(BridgeOrder(subtype: .placed, id: 1))
            await tally.wait(for: 1)
            for run in runs { run.cancel() }
            for run in runs { try await run.value }
        }
        #expect(received.withLock { $0 } == [1])
        let dropped = reported.filter { $0.kind == .bridgeEventDropped }
        // Both bridges received the malformed message; each reported it once.
        #expect(dropped.count == 2)
        #expect(dropped.allSatisfy { $0.message.contains("does not decode") && $0.error != nil })
        withExtendedLifetime(token) {}
    }

    @Test("a message seen before from its sender is dropped; a bridge skips its own messages")
    func duplicates() async throws {
        let network = BridgeTestNetwork()
        let (a, b) = pair(network)
        let received = TestLock<[Int]>([])
        let tally = Tally()
        let token = b.bus.subscribe(orders) { order in
            received.withLock { $0.append(order.id) }
            tally.increment()
        }
        let run = Task { try await b.run() }
        let inbox = Array(#"{"subtype":"placed","id":1}"#.utf8)
        for sequence: UInt64 in [1, 1, 2, 1] {
            network.broadcast(
                BusMessage(
                    topic: "BridgeOrder", sender: BusInstanceID("x"), sequence: sequence,
                    payload: inbox))
        }
        // b's own id: skipped.
        network.broadcast(
            BusMessage(topic: "BridgeOrder", sender: b.instance, sequence: 9, payload: inbox))
        network.broadcast(
            BusMessage(
                topic: "BridgeOrder", sender: BusInstanceID("x"), sequence: 3,
                payload: Array(#"{"subtype":"placed","id":3}"#.utf8)))
        await tally.wait(for: 3)
        run.cancel()
        try await run.value
        #expect(received.withLock { $0 } == [1, 1, 3])
        withExtendedLifetime((a, token)) {}
    }

    @Test("what a handler publishes while handling a remote event is local, and is sent")
    func handlersPublishLocally() async throws {
        let network = BridgeTestNetwork()
        let (a, b) = pair(network)
        let origins = TestLock<[BusOrigin]>([])
        let tally = Tally()
        let tokens = [
            // b answers each placed order with a cancellation, published during the delivery.
            b.bus.subscribe(BusTopic(BridgeOrder.self, .placed)) { [bus = b.bus] order in
                bus.publish(BridgeOrder(subtype: .cancelled, id: order.id))
            },
            b.bus.subscribe(BusTopic(BridgeOrder.self, .cancelled)) { _ in
                origins.withLock { $0.append(BusOrigin.current) }
            },
            a.bus.subscribe(BusTopic(BridgeOrder.self, .cancelled)) { _ in
                origins.withLock { $0.append(BusOrigin.current) }
                tally.increment()
            },
        ]
        let runs = [Task { try await a.run() }, Task { try await b.run() }]
        a.bus.publish(BridgeOrder(subtype: .placed, id: 1))
        await tally.wait(for: 1)
        for run in runs { run.cancel() }
        for run in runs { try await run.value }
        #expect(origins.withLock { $0 } == [.local, .remote(BusInstanceID("b"))])
        #expect(network.sent.map(\.sender) == [BusInstanceID("a"), BusInstanceID("b")])
        #expect(BusOrigin.current == .local)
        withExtendedLifetime(tokens) {}
    }

    @Test(
        "cancelling run stops the bridge: its subscriptions end, nothing more is sent, a second run throws"
    )
    func stops() async throws {
        let network = BridgeTestNetwork()
        let bus = EventBus(name: "a")
        let bridge = BusBridge(bus: bus, transport: network.transport())
        bridge.bridge(orders)
        let reported = Diagnostics.record {
            bridge.bridge(BusTopic(BridgeOrder.self, .placed))  // the same name again: ignored
        }
        #expect(reported.map(\.kind) == [.bridgeEventDropped])
        #expect(bus.subscriptionCount == 1)
        let run = Task { try await bridge.run() }
        bus.publish(BridgeOrder(subtype: .placed, id: 1))
        #expect(await eventually { network.sent.count == 1 })
        run.cancel()
        try await run.value
        #expect(bus.subscriptionCount == 0)
        bus.publish(BridgeOrder(subtype: .placed, id: 2))
        #expect(network.sent.count == 1)
        await #expect(throws: BusBridgeError.alreadyRan) { try await bridge.run() }
    }

    @Test("a stopped bridge, its bus and its transport are freed: nothing keeps them")
    func noLeaks() async throws {
        weak var weakBridge: BusBridge?
        weak var weakBus: EventBus?
        do {
            let network = BridgeTestNetwork()
            let (a, b) = pair(network)
            weakBridge = a
            weakBus = a.bus
            let tally = Tally()
            let token = b.bus.subscribe(orders) { _ in tally.increment() }
            let runs = [Task { try await a.run() }, Task { try await b.run() }]
            a.bus.publish(BridgeOrder(subtype: .placed, id: 1))
            await tally.wait(for: 1)
            for run in runs { run.cancel() }
            for run in runs { try await run.value }
            token.cancel()
        }
        #expect(await eventually { weakBridge == nil && weakBus == nil })
    }

    @Test("an unbridged bus is freed while its bridge's subscriptions are registered")
    func subscriptionKeepsNoBus() async {
        weak var weakBus: EventBus?
        var bridge: BusBridge? = BusBridge(
            bus: EventBus(name: "a"), transport: BridgeTestNetwork().transport())
        bridge?.bridge(orders)
        weakBus = bridge?.bus
        #expect(weakBus?.subscriptionCount == 1)
        bridge = nil
        #expect(weakBus == nil)
    }
}
