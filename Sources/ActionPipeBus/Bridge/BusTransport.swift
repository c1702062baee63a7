/// What carries a bridged bus's events to the other instances and theirs back: the seam
/// between ``BusBridge`` and a network, a database or a test's memory.
///
/// A transport moves ``BusMessage``s as they are. Its guarantees are its own and it says
/// them (delivered at most once, or at least once; in each sender's order or not); a
/// bridge adds what it can on top: it drops its own messages, and a message whose sequence
/// it has already seen from that sender.
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
/// Both methods are the app's (or an integration's) code: a bridge calls them from the task
/// that runs it, never under a lock.
public protocol BusTransport: Sendable {
    /// Sends `message` to the other instances. A bridge sends one message at a time, in
    /// publish order, and waits for each: a transport that cannot send now may wait (to
    /// reconnect) or throw, and the bridge reports the event dropped.
    ///
    /// ```swift
    /// try await transport.send(message)
    /// ```
    func send(_ message: BusMessage) async throws

    /// Receives the other instances' messages, handing each to `inbox`, until the task is
    /// cancelled (then it returns) or the transport fails for good (then it throws, and
    /// the bridge's ``BusBridge/run()`` throws it).
    ///
    /// ```swift
    /// try await transport.receive(into: inbox)
    /// ```
    func receive(into inbox: BusInbox) async throws
}
