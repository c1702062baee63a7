/// A bit set that selects which handlers a call runs.
///
/// A handler may be registered with a state. A call made with a state `s` runs a handler
/// with state `h` only when `s & h != 0`; handlers registered without a state always run,
/// and a call made without a state runs handlers of every state.
///
/// ```swift
/// pipe1.on(\.load).state(.start).handle { _ in "start" }
/// pipe2.on(\.load).state(.success).handle { _ in "success" }
/// pipe1.with(state: .success).load()        // runs pipe2's handler only
/// pipe1.with(state: [.start, .success]).load()   // runs both
/// ```
///
/// The named states follow the original ZZActionPipe: start = 1, process = 2, success = 4,
/// error = 8, end = 16. Any other bits may be used too, for example `ActionState(10)`.
public struct ActionState: OptionSet, Sendable, Hashable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The bits of the state.
    ///
    /// ```swift
    /// ActionState.success.rawValue   // 4
    /// ```
    public var rawValue: UInt64

    /// Creates a state from its bits.
    ///
    /// ```swift
    /// let custom = ActionState(rawValue: 1 << 8)
    /// ```
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Creates a state from its bits.
    ///
    /// ```swift
    /// let ten = ActionState(10)
    /// ```
    @inlinable public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// Creates a state from an integer literal, so `10` can stand for `ActionState(10)`.
    ///
    /// ```swift
    /// let state: ActionState = 10
    /// ```
    @inlinable public init(integerLiteral value: UInt64) { self.rawValue = value }

    // The named states are computed, not stored: a stored static is read through a call
    // (its lazy initialiser's accessor), which ends a call's release-free stretch (see
    // `BoundAction.callAsFunction`) and costs the call a retain of the pipe.

    /// The work is starting (1).
    ///
    /// ```swift
    /// pipe.with(state: .start).load()
    /// ```
    @inlinable public static var start: ActionState { ActionState(rawValue: 1) }
    /// The work is in progress (2).
    ///
    /// ```swift
    /// pipe.with(state: .process).load()
    /// ```
    @inlinable public static var process: ActionState { ActionState(rawValue: 2) }
    /// The work succeeded (4).
    ///
    /// ```swift
    /// trigger.call(state: .success)
    /// ```
    @inlinable public static var success: ActionState { ActionState(rawValue: 4) }
    /// The work failed (8).
    ///
    /// ```swift
    /// trigger.call(state: .error)
    /// ```
    @inlinable public static var error: ActionState { ActionState(rawValue: 8) }
    /// The work is over, whatever its outcome (16).
    ///
    /// ```swift
    /// pipe.with(state: .end).load()
    /// ```
    @inlinable public static var end: ActionState { ActionState(rawValue: 16) }

    /// Whether a handler registered with `self` runs in a call made with `callState`.
    ///
    /// ```swift
    /// ActionState(10).runs(in: 1)    // false: 10 & 1 == 0
    /// ActionState(10).runs(in: 11)   // true
    /// ```
    @inlinable
    public func runs(in callState: ActionState) -> Bool {
        rawValue & callState.rawValue != 0
    }

    /// A named state by its name (`start`); any other state by its number, followed by the
    /// names of its bits when they are all named: `5 (start|success)`, `10 (process|error)`,
    /// `256`.
    ///
    /// ```swift
    /// print(ActionState.start)              // "start"
    /// print(ActionState([.start, .error]))  // "9 (start|error)"
    /// ```
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
