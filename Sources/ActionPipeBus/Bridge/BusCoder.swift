/// How a ``BusBridge`` turns events into bytes and back: JSON by default (``BusJSONCoder``);
/// every instance sharing a transport must use the same. A bridge calls it with no lock
/// held, on the publishing thread (encoding) or the transport's receiving task (decoding).
public protocol BusCoder: Sendable {
    /// The bytes of `event`.
    func encode<Event: Encodable>(_ event: Event) throws -> [UInt8]

    /// The event of type `type` encoded in `bytes`; throws when they do not hold one.
    func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws -> Event
}
