/// The identity of one bridged bus among the instances sharing a ``BusTransport``.
public struct BusInstanceID: Hashable, Sendable, CustomStringConvertible {
    /// The id as text, as it travels.
    public let rawValue: String

    /// Short (it travels with every event) and unique among the transport's instances.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new id of 16 random hexadecimal digits.
    public static func random() -> BusInstanceID {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return BusInstanceID(String(repeating: "0", count: 16 - digits.count) + digits)
    }

    /// The raw value.
    public var description: String { rawValue }
}
