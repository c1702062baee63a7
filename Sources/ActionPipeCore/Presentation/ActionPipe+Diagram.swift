extension ActionPipe {
    /// This pipe's chain as a Mermaid flowchart, from the head: one box per pipe (ids
    /// `pipe0`, `pipe1`, …, names escaped), and an arrow to the next, as a call walks.
    ///
    /// ```swift
    /// print(screen.mermaidDiagram)
    /// // flowchart LR
    /// //     pipe0["screen"]
    /// //     pipe1["controller"]
    /// //     pipe0 --> pipe1
    /// ```
    ///
    /// - Complexity: O(n) for n pipes in the chain, and one take of the topology lock.
    public var mermaidDiagram: String {
        let names = chainNames
        var chart = MermaidFlowchart(direction: "LR")
        for (index, name) in names.enumerated() { chart.node("pipe\(index)", name) }
        for index in names.indices.dropFirst() { chart.edge("pipe\(index - 1)", "pipe\(index)") }
        return chart.text
    }
}
