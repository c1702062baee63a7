/// One event as it travels between bridged buses: encoded, with the name its topic has on
/// the wire, the instance that sent it and that instance's sequence number.
///
/// A ``BusTransport`` carries messages as they are; it need not understand the payload.
///
/// ```swift
/// let message = BusMessage(
///     topic: "OrderPlaced", sender: BusInstanceID("a"), sequence: 1, payload: Array("{}".utf8))
/// ```
public struct BusMessage: Hashable, Sendable {
    /// The name of the event's type on the wire (``BusBridge/bridge(_:as:)``).
    public var topic: String
    /// The instance that published the event.
    public var sender: BusInstanceID
    /// The sender's count of the messages it sent, from 1: increasing, so a receiver keeps
    /// each sender's order and recognises a message delivered twice.
    public var sequence: UInt64
    /// The event, encoded by the sender's ``BusCoder``.
    public var payload: [UInt8]

    /// A message.
    ///
    /// ```swift
    /// BusMessage(topic: "Ping", sender: BusInstanceID("a"), sequence: 1, payload: [])
    /// ```
    ///
    /// - Complexity: O(1).
    public init(topic: String, sender: BusInstanceID, sequence: UInt64, payload: [UInt8]) {
        self.topic = topic
        self.sender = sender
        self.sequence = sequence
        self.payload = payload
    }
}
