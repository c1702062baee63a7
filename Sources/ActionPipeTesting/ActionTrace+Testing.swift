import ActionPipe

extension ActionTrace {
    /// The names of the chain's pipes, in chain order, whatever they did.
    ///
    /// ```swift
    /// #expect(report.trace.pipeNames == ["cache", "server"])
    /// ```
    ///
    /// - Complexity: O(p) for p pipes.
    public var pipeNames: [String] { steps.map(\.pipe) }

    /// The names of the pipes whose handlers ran (also those that stopped the call or
    /// threw), in chain order: the same as `ran`, named to pair with ``skippedPipes``.
    ///
    /// ```swift
    /// #expect(report.trace.ranPipes == ["cache"])
    /// ```
    ///
    /// - Complexity: O(p) for p pipes.
    public var ranPipes: [String] { ran }

    /// The names of the pipes that did not run their handler, for whatever reason, in
    /// chain order.
    ///
    /// ```swift
    /// #expect(report.trace.skippedPipes == ["server"])
    /// ```
    ///
    /// - Complexity: O(p) for p pipes.
    public var skippedPipes: [String] {
        steps.compactMap { step in
            if case .skipped = step.outcome { return step.pipe }
            return nil
        }
    }

    /// What the pipe named `pipe` did, or `nil` when no pipe of the chain has that name
    /// (the first one, if several do).
    ///
    /// ```swift
    /// #expect(report.trace.outcome(of: "server") == .skipped(.stoppedEarlier))
    /// ```
    ///
    /// - Complexity: O(p) for p pipes.
    public func outcome(of pipe: String) -> Outcome? {
        steps.first { $0.pipe == pipe }?.outcome
    }

    /// Why the pipe named `pipe` did not run, or `nil` when it ran or is not in the chain.
    ///
    /// ```swift
    /// #expect(report.trace.skipReason(of: "server") == .stoppedEarlier)
    /// ```
    ///
    /// - Complexity: O(p) for p pipes.
    public func skipReason(of pipe: String) -> SkipReason? {
        guard case .skipped(let reason) = outcome(of: pipe) else { return nil }
        return reason
    }

    /// The trace in one short, comparable line: each pipe with one word for what it did
    /// (`ran`, `stopped`, `skipped`, `threw`), without the reasons, which
    /// `description` and ``skipReason(of:)`` give.
    ///
    /// ```swift
    /// #expect(report.trace.summary == "cache stopped, server skipped")
    /// ```
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
