/// How a ``BusBridge`` turns events into bytes and back (the same in every instance). A bridge
/// calls it with no lock held: `encode` on the publishing thread, inside `publish`; `decode`
/// on the transport's receiving task.
public protocol BusCoder: Sendable {
    /// The bytes of `event`.
    func encode<Event: Encodable>(_ event: Event) throws -> [UInt8]

    /// The event of type `type` encoded in `bytes`.
    func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws -> Event
}
