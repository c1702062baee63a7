import ActionPipe
import Synchronization

/// An order event that bridges cross: Codable, with a subtype.
struct BridgeOrder: BusEvent, Codable {
    enum Kind: String, Codable, Hashable, Sendable { case placed, cancelled }
    let subtype: Kind
    let id: Int
}

/// An event no test bridges: it must stay on its bus.
struct BridgeNote: BusEvent, Codable {
    let text: String
}

/// Memory that several ``BridgeTestTransport``s share: a message sent by one reaches every
/// member, its sender included (as PostgreSQL's `NOTIFY` reaches its own listener), so the
/// bridge's skipping of its own messages is exercised.
final class BridgeTestNetwork: Sendable {
    private let members = TestLock<[AsyncStream<BusMessage>.Continuation]>([])
    private let log = TestLock<[BusMessage]>([])

    /// Every message sent so far, in send order.
    var sent: [BusMessage] { log.withLock { $0 } }

    /// A new member's transport.
    func transport() -> BridgeTestTransport {
        let (stream, continuation) = AsyncStream.makeStream(of: BusMessage.self)
        members.withLock { $0.append(continuation) }
        return BridgeTestTransport(network: self, messages: stream)
    }

    /// Hands `message` to every member, as if some instance had sent it.
    func broadcast(_ message: BusMessage) {
        log.withLock { $0.append(message) }
        for member in members.withLock({ $0 }) { member.yield(message) }
    }
}

/// A member of a ``BridgeTestNetwork``.
struct BridgeTestTransport: BusTransport {
    let network: BridgeTestNetwork
    let messages: AsyncStream<BusMessage>

    func send(_ message: BusMessage) async throws { network.broadcast(message) }

    func receive(into inbox: BusInbox) async throws {
        for await message in messages { inbox.deliver(message) }
    }
}
