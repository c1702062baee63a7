extension ActionTrace {
    /// The trace as an aligned table under a heading line: `pipe`, `outcome` and `reason`
    /// (why it was skipped, or the error). Lines end without trailing spaces.
    ///
    /// ```swift
    /// print(report.trace.table)
    /// // someFunc start
    /// // pipe  outcome  reason
    /// // p1    ran
    /// // p2    skipped  not registered
    /// ```
    ///
    /// - Complexity: O(n) for n steps.
    public var table: String {
        let rows =
            [["pipe", "outcome", "reason"]]
            + steps.map { step in
                switch step.outcome {
                case .ran: [step.pipe, "ran", ""]
                case .stopped: [step.pipe, "stopped", "stopped the call"]
                case .skipped(let reason): [step.pipe, "skipped", reason.description]
                case .threw(let error): [step.pipe, "threw", error]
                }
            }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = (state.map { "\(action) \($0)" } ?? action) + "\n"
        for row in rows {
            let padding = (0..<2).map { String(repeating: " ", count: widths[$0] - row[$0].count) }
            var line = row[0] + padding[0] + "  " + row[1] + padding[1] + "  " + row[2]
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }
}
