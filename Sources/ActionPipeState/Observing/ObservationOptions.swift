/// How an observer wants its values: the current one at once, and/or without repeats. By
/// default it receives every assignment made after it registered, equal values included.
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: UInt8

    /// Creates options from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Deliver the current value once, as soon as the observer is registered.
    public static let initial = ObservationOptions(rawValue: 1 << 0)

    /// Skip a value equal (`==`) to the last one this observer saw (at registration, then
    /// each delivered). Values of a non-`Equatable` type are never equal.
    public static let skipEqual = ObservationOptions(rawValue: 1 << 1)
}
