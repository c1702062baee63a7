/// How a ``BusBridge`` turns events into bytes and back: the app's choice, JSON by default
/// (``BusJSONCoder``). Every instance sharing a transport must use the same coding.
///
/// ```swift
/// struct PropertyListCoder: BusCoder {
///     func encode<Event: Encodable>(_ event: Event) throws -> [UInt8] {
///         Array(try PropertyListEncoder().encode(event))
///     }
///     func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws -> Event {
///         try PropertyListDecoder().decode(type, from: Data(bytes))
///     }
/// }
/// ```
///
/// Its methods are the app's code: a bridge calls them with no lock held, on the thread of
/// the publish (encoding) or of the transport's receiving task (decoding).
public protocol BusCoder: Sendable {
    /// The bytes of `event`.
    ///
    /// ```swift
    /// let bytes = try coder.encode(OrderPlaced(id: 7))
    /// ```
    func encode<Event: Encodable>(_ event: Event) throws -> [UInt8]

    /// The event of type `type` encoded in `bytes`; throws when they do not hold one.
    ///
    /// ```swift
    /// let order = try coder.decode(OrderPlaced.self, from: bytes)
    /// ```
    func decode<Event: Decodable>(_ type: Event.Type, from bytes: [UInt8]) throws -> Event
}
