/// What carries a bridged bus's ``BusMessage``s to the other instances and theirs back,
/// with its own delivery guarantees.
public protocol BusTransport: Sendable {
    /// Sends `message` to the other instances; called one at a time, in order.
    func send(_ message: BusMessage) async throws

    /// Receives messages into `inbox` until cancelled (returns) or failing for good (throws).
    func receive(into inbox: BusInbox) async throws
}
