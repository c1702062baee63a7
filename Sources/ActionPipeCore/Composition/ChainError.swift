/// An error from composing pipes; the composition that throws changes nothing.
///
/// ```swift
/// do {
///     try pipe1.append(pipe1)
/// } catch let error as ChainError {
///     print(error)   // pipe1 is already in the chain pipe1: appending it would make a cycle...
/// }
/// ```
public enum ChainError: Error, Equatable, CustomStringConvertible {
    /// The pipe to append is already in the receiver's chain, so appending it would make
    /// a cycle. `chain` lists the chain's pipes.
    case alreadyInChain(pipe: String, chain: [String])

    /// What went wrong and what to do.
    ///
    /// ```swift
    /// print(ChainError.alreadyInChain(pipe: "p1", chain: ["p1", "p2"]))
    /// ```
    public var description: String {
        switch self {
        case .alreadyInChain(let pipe, let chain):
            "\(pipe) is already in the chain \(chain.joined(separator: " → ")): appending it "
                + "would make a cycle. Nothing was changed. To move it, call "
                + "removeFromChain() on it first."
        }
    }
}
