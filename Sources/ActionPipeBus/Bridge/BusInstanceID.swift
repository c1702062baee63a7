/// The identity of one bridged bus among the instances that share events through a
/// ``BusTransport``: what a message carries as its sender, so a bridge skips its own
/// messages and subscribers can tell which instance an event came from.
///
/// ```swift
/// let bridge = BusBridge(bus: bus, transport: transport, instance: BusInstanceID("orders-1"))
/// ```
public struct BusInstanceID: Hashable, Sendable, CustomStringConvertible {
    /// The id as text, as it travels.
    public let rawValue: String

    /// An id with the given text; keep it short (it travels with every event) and unique
    /// among the instances sharing a transport.
    ///
    /// ```swift
    /// BusInstanceID("orders-1").rawValue == "orders-1"
    /// ```
    ///
    /// - Complexity: O(1).
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A new id of 16 random hexadecimal digits, unique with overwhelming likelihood.
    ///
    /// ```swift
    /// let id = BusInstanceID.random()
    /// ```
    ///
    /// - Complexity: O(1).
    public static func random() -> BusInstanceID {
        var generator = SystemRandomNumberGenerator()
        let digits = String(generator.next() as UInt64, radix: 16)
        return BusInstanceID(String(repeating: "0", count: 16 - digits.count) + digits)
    }

    /// The raw value.
    public var description: String { rawValue }
}
