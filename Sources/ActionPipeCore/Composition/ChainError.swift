/// An error from composing pipes; the composition that throws changes nothing.
public enum ChainError: Error, Equatable, CustomStringConvertible {
    /// The pipe to append is already in the receiver's chain (listed in `chain`): a cycle.
    case alreadyInChain(pipe: String, chain: [String])

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .alreadyInChain(let pipe, let chain):
            "\(pipe) is already in the chain \(chain.joined(separator: " → ")): appending it "
                + "would make a cycle. Nothing was changed. To move it, call "
                + "removeFromChain() on it first."
        }
    }
}
