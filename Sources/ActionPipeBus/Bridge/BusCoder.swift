/// How a ``BusBridge`` turns events into bytes and back (the same in every instance).
public protocol BusCoder: Sendable {
    /// The bytes of `event`.
    func encode<Event: Encodable>(_ event: Event) throws -> [UInt8]

    /// The event of type `type` encoded in `bytes`.
    func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws -> Event
}
