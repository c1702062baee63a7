/// One event as it travels between bridged buses, encoded.
public struct BusMessage: Hashable, Sendable {
    /// The name of the event's type on the wire (``BusBridge/bridge(_:as:)``).
    public var topic: String
    /// The instance that published the event.
    public var sender: BusInstanceID
    /// Counts the sender's messages from 1, so a receiver spots repeats.
    public var sequence: UInt64
    /// The event, encoded by the sender's ``BusCoder``.
    public var payload: [UInt8]

    /// A message.
    public init(topic: String, sender: BusInstanceID, sequence: UInt64, payload: [UInt8]) {
        self.topic = topic
        self.sender = sender
        self.sequence = sequence
        self.payload = payload
    }
}
