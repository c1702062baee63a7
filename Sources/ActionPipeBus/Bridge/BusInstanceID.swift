/// The identity of one bridged bus among the instances sharing a ``BusTransport``: a
/// message's sender, so a bridge skips its own messages and subscribers can tell where an
/// event came from.
public struct BusInstanceID: Hashable, Sendable, CustomStringConvertible {
    /// The id as text, as it travels.
    public let rawValue: String

    /// Short (it travels with every event) and unique among the instances of a transport.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new id of 16 random hexadecimal digits.
    public static func random() -> BusInstanceID {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return BusInstanceID(String(repeating: "0", count: 16 - digits.count) + digits)
    }

    /// The raw value.
    public var description: String { rawValue }
}
