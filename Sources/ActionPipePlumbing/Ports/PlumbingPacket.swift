/// The data a port produced, with the number of the port that produced it. A stage receives
/// it `inout` and may change the payload; `packet.link` reads and writes `packet.payload.link`.
@dynamicMemberLookup
public struct PlumbingPacket<Payload: Sendable>: Sendable {
    /// The data the packet carries; stages may change it.
    public var payload: Payload

    /// The number of the port that produced the packet.
    public let port: Int

    /// A packet carrying `payload`, produced by port `port`.
    ///
    /// - Complexity: O(1).
    @inlinable
    public init(_ payload: Payload, port: Int) {
        self.payload = payload
        self.port = port
    }

    /// A field of the payload, read or written through the packet.
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Payload, Value>) -> Value {
        get { payload[keyPath: field] }
        set { payload[keyPath: field] = newValue }
    }
}

extension PlumbingPacket: Equatable where Payload: Equatable {}

extension PlumbingPacket: CustomStringConvertible {
    /// The port and the payload: `port 100: 5`.
    public var description: String { "port \(port): \(payload)" }
}
