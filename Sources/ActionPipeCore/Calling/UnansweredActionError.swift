/// The error of `answer(_:)` of a bound action: no handler of the chain answered, because
/// none registered the action, every handler was skipped or returned `nil`, or the call
/// nested too deep. `report(_:)` tells which, pipe by pipe.
///
/// ```swift
/// print(error)   // price("apple"): no handler answered in the chain shop
/// ```
public struct UnansweredActionError: Error, Equatable, CustomStringConvertible {
    /// The action's name, as in a trace (`price`).
    public let action: String

    /// The call's arguments, described as in a trace (``ActionTrace/arguments``).
    public let arguments: [String]

    /// The names of the chain's pipes, head first.
    public let chain: [String]

    /// What was called and where, and what to do.
    public var description: String {
        "\(action)(\(arguments.joined(separator: ", "))): no handler answered in the chain "
            + chain.joined(separator: " → ")
            + ": none registered it, each was skipped, or the last returned nil. "
            + "report(…) says which, pipe by pipe."
    }

    /// An error for a call of `action` with `arguments` on the chain `chain`.
    public init(action: String, arguments: [String], chain: [String]) {
        self.action = action
        self.arguments = arguments
        self.chain = chain
    }
}
