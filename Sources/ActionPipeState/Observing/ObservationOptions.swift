/// How an observer wants its values: the current one at once, and/or without repeats.
///
/// By default an observer receives every assignment made after it registered, equal values
/// included (Minya's semantics: an assignment is a "data arrived" pulse).
///
/// ```swift
/// let index = ObservedProperty(1)
/// index.observe([.initial, .skipEqual]) { print($0) }   // prints 1 at once
/// index.value = 1   // skipped: equal to the last value this observer saw
/// index.value = 2   // prints 2
/// ```
public struct ObservationOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    ///
    /// ```swift
    /// ObservationOptions(rawValue: 1) == .initial   // true
    /// ```
    public let rawValue: UInt8

    /// Creates options from their bits.
    ///
    /// ```swift
    /// let options = ObservationOptions(rawValue: 3)   // [.initial, .skipEqual]
    /// ```
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Deliver the current value once, as soon as the observer is registered.
    ///
    /// ```swift
    /// index.observe(.initial) { print($0) }
    /// ```
    public static let initial = ObservationOptions(rawValue: 1 << 0)

    /// Skip a value equal (`==`) to the last value this observer saw (the value at
    /// registration, then each value delivered to it). Values of a type that is not
    /// `Equatable` are never equal, so every one is delivered.
    ///
    /// ```swift
    /// index.observe(.skipEqual) { print($0) }
    /// ```
    public static let skipEqual = ObservationOptions(rawValue: 1 << 1)
}
