import ActionPipe

extension ActionTrace {
    /// The names of the chain's pipes, in chain order, whatever they did.
    ///
    /// - Complexity: O(p) for p pipes.
    public var pipeNames: [String] { steps.map(\.pipe) }

    /// The pipes whose handlers ran (also those that stopped or threw), in chain order.
    ///
    /// - Complexity: O(p) for p pipes.
    public var ranPipes: [String] { ran }

    /// The pipes that did not run their handler, in chain order.
    ///
    /// - Complexity: O(p) for p pipes.
    public var skippedPipes: [String] {
        steps.compactMap { if case .skipped = $0.outcome { $0.pipe } else { nil } }
    }

    /// What the (first) pipe named `pipe` did; `nil` when none is.
    ///
    /// - Complexity: O(p) for p pipes.
    public func outcome(of pipe: String) -> Outcome? {
        steps.first { $0.pipe == pipe }?.outcome
    }

    /// Why the pipe named `pipe` did not run; `nil` when it ran or is not in the chain.
    ///
    /// - Complexity: O(p) for p pipes.
    public func skipReason(of pipe: String) -> SkipReason? {
        if case .skipped(let reason) = outcome(of: pipe) { reason } else { nil }
    }

    /// The trace in one line without the reasons: `cache stopped, server skipped`.
    ///
    /// - Complexity: O(p) for p pipes.
    public var summary: String {
        steps.map { step in
            let word =
                switch step.outcome {
                case .ran: "ran"
                case .stopped: "stopped"
                case .skipped: "skipped"
                case .threw: "threw"
                }
            return "\(step.pipe) \(word)"
        }
        .joined(separator: ", ")
    }
}
