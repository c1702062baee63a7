#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The default ``BusCoder``: JSON, with Foundation's default settings.
public struct BusJSONCoder: BusCoder {
    /// A JSON coder.
    public init() {}

    /// The JSON text of `event`, as UTF-8 bytes.
    public func encode<Event: Encodable>(_ event: Event) throws -> [UInt8] {
        Array(try JSONEncoder().encode(event))
    }

    /// The event decoded from JSON `bytes`.
    public func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws
        -> Event
    {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
