/// What carries a bridged bus's events to the other instances and theirs back: the seam
/// between ``BusBridge`` and a network, a database or a test's memory.
///
/// A transport moves ``BusMessage``s as they are and states its own guarantees (at most or
/// at least once, ordered or not); a bridge drops its own messages and sequences it has
/// already seen from a sender.
///
/// ```swift
/// struct LoopbackTransport: BusTransport {
///     let messages: AsyncStream<BusMessage>
///     let input: AsyncStream<BusMessage>.Continuation
///     func send(_ message: BusMessage) async throws { input.yield(message) }
///     func receive(into inbox: BusInbox) async throws {
///         for await message in messages { inbox.deliver(message) }
///     }
/// }
/// ```
///
/// A bridge calls both methods from the task that runs it, never under a lock.
public protocol BusTransport: Sendable {
    /// Sends `message` to the other instances. A bridge sends one at a time, in publish
    /// order, awaiting each: a transport may wait (to reconnect) or throw, and the bridge
    /// reports the event dropped.
    func send(_ message: BusMessage) async throws

    /// Receives the other instances' messages into `inbox` until the task is cancelled
    /// (returns) or the transport fails for good (throws, and ``BusBridge/run()`` with it).
    func receive(into inbox: BusInbox) async throws
}
