import ActionPipeConcurrency

extension PipelinePlumber {
    /// The plumber as a Mermaid flowchart, left to right: the ports (stadiums, ids `port0`,
    /// … in the order added), an arrow to the first stage, the stages in order (boxes,
    /// `stage0`, …), and the sink (a cylinder, `sink`) when one is set.
    ///
    /// - Complexity: O(p + s) for p ports and s stages, under one take of the plumber's lock.
    public var mermaidDiagram: String {
        let (ports, stages, hasSink) = _configuration.withLock { configuration in
            let storage = configuration.storage
            return (
                configuration.ports.map(\.number),
                (0..<storage.initialized).map { storage.names[$0] },
                configuration.sink != nil
            )
        }
        var chart = MermaidFlowchart(direction: "LR")
        for (index, number) in ports.enumerated() {
            chart.node("port\(index)", "port \(number)", shape: .stadium)
        }
        for (index, name) in stages.enumerated() { chart.node("stage\(index)", name) }
        if hasSink { chart.node("sink", "sink", shape: .cylinder) }
        // What a packet passes, in order; every port leads to its start.
        let path = stages.indices.map { "stage\($0)" } + (hasSink ? ["sink"] : [])
        for index in ports.indices where !path.isEmpty { chart.edge("port\(index)", path[0]) }
        for (from, to) in zip(path, path.dropFirst()) { chart.edge(from, to) }
        return chart.text
    }
}
