/// A bit set that selects which handlers a call runs: a call made with state `s` runs a
/// handler registered with state `h` only when `s & h != 0`; handlers without a state
/// always run, and a call without a state runs every handler.
///
/// ```swift
/// pipe1.on(\.load).state(.start).handle { _ in "start" }
/// pipe2.on(\.load).state(.success).handle { _ in "success" }
/// pipe1.with(state: .success).load()        // runs pipe2's handler only
/// pipe1.with(state: [.start, .success]).load()   // runs both
/// ```
///
/// The named states are the original ZZActionPipe's; any other bits may be used too.
public struct ActionState: OptionSet, Sendable, Hashable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The bits of the state.
    public var rawValue: UInt64

    /// Creates a state from its bits.
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Creates a state from its bits.
    @inlinable public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Creates a state from an integer literal.
    @inlinable public init(integerLiteral value: UInt64) { self.rawValue = value }

    // Computed, not stored: a stored static's accessor call costs a call a retain of the pipe.

    /// The work is starting (1).
    @inlinable public static var start: ActionState { ActionState(rawValue: 1) }
    /// The work is in progress (2).
    @inlinable public static var process: ActionState { ActionState(rawValue: 2) }
    /// The work succeeded (4).
    @inlinable public static var success: ActionState { ActionState(rawValue: 4) }
    /// The work failed (8).
    @inlinable public static var error: ActionState { ActionState(rawValue: 8) }
    /// The work is over, whatever its outcome (16).
    @inlinable public static var end: ActionState { ActionState(rawValue: 16) }

    /// Whether a handler registered with `self` runs in a call made with `callState`.
    @inlinable
    public func runs(in callState: ActionState) -> Bool {
        rawValue & callState.rawValue != 0
    }

    /// A named state by its name; any other by its number, then its bits' names when all
    /// are named: `5 (start|success)`, `256`.
    public var description: String {
        let named: [(UInt64, String)] = [
            (1, "start"), (2, "process"), (4, "success"), (8, "error"), (16, "end"),
        ]
        if let single = named.first(where: { $0.0 == rawValue }) { return single.1 }
        let names = named.filter { rawValue & $0.0 != 0 }
        let namedBits = names.reduce(0) { $0 | $1.0 }
        guard namedBits == rawValue, !names.isEmpty else { return String(rawValue) }
        return "\(rawValue) (" + names.map(\.1).joined(separator: "|") + ")"
    }
}
