import ActionPipe
import HummingbirdTesting
import OrdersService
import Synchronization
import Testing

// `--postgres` without a database: two services' buses bridged over an in-memory transport
// (the one of Docs/CrossProcessBus.md), the way main.swift
// bridges them over PostgreSQL. The PostgreSQL transport's own tests are in
// Integrations/Postgres.

/// Memory that several bridges share: each message reaches every member, its sender too
/// (the bridge skips its own).
final class MemoryNetwork: Sendable {
    private let members = Mutex<[AsyncStream<BusMessage>.Continuation]>([])

    func join() -> MemoryTransport {
        let (messages, input) = AsyncStream.makeStream(of: BusMessage.self)
        members.withLock { $0.append(input) }
        return MemoryTransport(network: self, messages: messages)
    }

    func broadcast(_ message: BusMessage) {
        for member in members.withLock({ $0 }) { member.yield(message) }
    }
}

struct MemoryTransport: BusTransport {
    let network: MemoryNetwork
    let messages: AsyncStream<BusMessage>

    func send(_ message: BusMessage) async throws { network.broadcast(message) }

    func receive(into inbox: BusInbox) async throws {
        for await message in messages { inbox.deliver(message) }
    }
}

/// Waits up to 5 seconds for `condition`, checking every 10 ms.
func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<500 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

@Suite struct SharedEventsTests {
    @Test func anOrderPlacedOnOneInstanceReachesTheOther() async throws {
        let (first, firstApp) = try makeService()
        let (second, _) = try makeService()
        let network = MemoryNetwork()
        let bridges = [
            BusBridge(bus: first.bus, transport: network.join(), instance: BusInstanceID("8081")),
            BusBridge(bus: second.bus, transport: network.join(), instance: BusInstanceID("8082")),
        ]
        first.share(through: bridges[0])
        second.share(through: bridges[1])
        let running = bridges.map { bridge in Task { try await bridge.run() } }

        try await firstApp.test(.router) { client in
            let order = OrderRequest(customer: "ada", lines: [.init(sku: "latte", quantity: 2)])
            let placed = try await place(order, client)
            #expect(placed.status == .created)
            let unknown = OrderRequest(customer: "bob", lines: [.init(sku: "unicorn", quantity: 1)])
            let refused = try await place(unknown, client)
            #expect(refused.status == .badRequest)
        }
        let expected = [
            "placed order 1 for ada: 700 cents (from another instance)",
            "rejected order for bob: unknown product 'unicorn' (from another instance)",
        ]
        let arrived = try await eventually { second.audit.all == expected }
        #expect(arrived, "\(second.audit.all)")
        // The other instance's orders are counted apart; nothing echoes back.
        #expect(second.state.ordersPlacedElsewhere == 1)
        #expect(second.state.ordersPlaced == 0)
        #expect(second.state.ordersRejected == 0)
        #expect(first.state.ordersPlaced == 1)
        #expect(first.state.ordersPlacedElsewhere == 0)
        #expect(
            first.audit.all == [
                "placed order 1 for ada: 700 cents",
                "rejected order for bob: unknown product 'unicorn'",
            ])

        for task in running { task.cancel() }
        for task in running { try await task.value }
    }
}
