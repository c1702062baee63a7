/// The error of `answer(_:)` of a bound action (sync, throwing or async): no handler of
/// the chain answered the call.
///
/// It happens when no pipe of the chain registered the action, when every handler was
/// skipped (a condition, a released target, a state) or returned `nil`, or when the call
/// was nested too deep. `report(_:)` tells which, pipe by pipe.
///
/// ```swift
/// do {
///     let price = try pipe.price.answer("apple")
/// } catch {
///     print(error)   // price("apple"): no handler answered in the chain shop
/// }
/// ```
public struct UnansweredActionError: Error, Equatable, CustomStringConvertible {
    /// The action's name, as in a trace (`price`).
    public let action: String

    /// The call's arguments, described as in a trace (``ActionTrace/arguments``).
    public let arguments: [String]

    /// The names of the chain's pipes, head first.
    public let chain: [String]

    /// What was called and where, and what to do.
    ///
    /// ```swift
    /// print(UnansweredActionError(action: "price", arguments: ["\"apple\""], chain: ["shop"]))
    /// ```
    public var description: String {
        "\(action)(\(arguments.joined(separator: ", "))): no handler answered in the chain "
            + chain.joined(separator: " → ")
            + ". Register a handler that returns a value, or call report(…) to see why each "
            + "pipe was skipped."
    }

    /// An error for a call of `action` with `arguments` on the chain `chain`.
    ///
    /// - Complexity: O(1).
    public init(action: String, arguments: [String], chain: [String]) {
        self.action = action
        self.arguments = arguments
        self.chain = chain
    }
}
