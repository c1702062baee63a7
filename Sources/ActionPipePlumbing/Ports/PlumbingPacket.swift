/// The data a port produced, with the number of the port that produced it.
///
/// A stage receives the packet `inout`: it may change the payload, or replace the whole
/// packet, before it passes it on. Fields of the payload can be read and written on the
/// packet itself, as on the original's `id<Packet>`:
///
/// ```swift
/// struct Share: Sendable { var docId: Int; var link: String? }
/// var packet = PlumbingPacket(Share(docId: 111111, link: nil), port: 100)
/// packet.link = "www.link.com"  // packet.payload.link
/// #expect(packet.docId == 111111 && packet.port == 100)
/// ```
@dynamicMemberLookup
public struct PlumbingPacket<Payload: Sendable>: Sendable {
    /// The data the packet carries; stages may change it.
    ///
    /// ```swift
    /// var packet = PlumbingPacket(1, port: 7)
    /// packet.payload += 1
    /// #expect(packet.payload == 2)
    /// ```
    public var payload: Payload

    /// The number of the port that produced the packet (the original's `portNum`).
    ///
    /// ```swift
    /// #expect(PlumbingPacket("tap", port: 100).port == 100)
    /// ```
    public let port: Int

    /// A packet carrying `payload`, produced by port `port`.
    ///
    /// A stage can build a new packet and assign it to the one it received:
    ///
    /// ```swift
    /// var packet = PlumbingPacket("draft", port: 1)
    /// packet = PlumbingPacket("final", port: packet.port)
    /// #expect(packet.payload == "final")
    /// ```
    @inlinable
    public init(_ payload: Payload, port: Int) {
        self.payload = payload
        self.port = port
    }

    /// A field of the payload, read or written through the packet.
    ///
    /// ```swift
    /// struct Tap: Sendable { var count: Int }
    /// var packet = PlumbingPacket(Tap(count: 1), port: 3)
    /// packet.count += 1
    /// #expect(packet.payload.count == 2)
    /// ```
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<Payload, Value>) -> Value {
        get { payload[keyPath: field] }
        set { payload[keyPath: field] = newValue }
    }
}

extension PlumbingPacket: Equatable where Payload: Equatable {}

extension PlumbingPacket: CustomStringConvertible {
    /// The port and the payload, e.g. `port 100: Share(docId: 111111)`.
    ///
    /// ```swift
    /// #expect(PlumbingPacket(5, port: 100).description == "port 100: 5")
    /// ```
    public var description: String { "port \(port): \(payload)" }
}
