/// What carries a bridged bus's ``BusMessage``s to the other instances and theirs back (a
/// network, a database, a test's memory), with its own delivery guarantees. A bridge calls
/// it from the task that runs it, never under a lock.
public protocol BusTransport: Sendable {
    /// Sends `message` to the other instances; called one at a time, in order. It may wait
    /// (to reconnect) or throw (the event is reported dropped).
    func send(_ message: BusMessage) async throws

    /// Receives the other instances' messages into `inbox` until the task is cancelled
    /// (returns) or the transport fails for good (throws).
    func receive(into inbox: BusInbox) async throws
}
