import ActionPipeConcurrency

extension ActionPipe {
    /// This pipe's chain as a Mermaid flowchart, from the head: one box per pipe, named as
    /// ``chainNames`` names it, and an arrow to the next pipe, the order a call walks.
    ///
    /// ```swift
    /// let screen = ActionPipe(name: "screen")
    /// try screen.append(ActionPipe(name: "controller"))
    /// print(screen.mermaidDiagram)
    /// // flowchart LR
    /// //     pipe0["screen"]
    /// //     pipe1["controller"]
    /// //     pipe0 --> pipe1
    /// ```
    ///
    /// Ids are `pipe0`, `pipe1`, … in chain order; names are quoted, with quotes, brackets,
    /// braces, `#`, `|` and angle brackets written as Mermaid entity codes (`#quot;`, …).
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
