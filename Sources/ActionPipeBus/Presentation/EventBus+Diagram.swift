import ActionPipeConcurrency

extension EventBus {
    /// The bus's subscriptions as a Mermaid flowchart: an arrow from each topic to each box.
    ///
    /// - Complexity: O(n log n) for n subscriptions.
    public var mermaidDiagram: String {
        // Under the lock only keys are built (subtypes boxed, not hashed or described).
        let rows = _state.withLock { state in
            state.tables.values.flatMap { Array($0.entries.values) + $0.more.values.joined() }
                .map { (id: $0.id, key: $0.key, name: $0.name) }
        }
        // Subscription order; a union's keys by name, so the picture never varies.
        let ordered = rows.map { (row: $0, topic: $0.key.description) }
            .sorted { ($0.row.id, $0.topic) < ($1.row.id, $1.topic) }
        var chart = MermaidFlowchart(direction: "LR")
        var topics: [BusEventKey: Int] = [:]
        var subscriptions: [UInt64: Int] = [:]
        var edges: [(topic: Int, subscription: Int)] = []
        for (row, description) in ordered {
            if topics[row.key] == nil {
                topics[row.key] = topics.count
                chart.node("topic\(topics.count - 1)", description, shape: .hexagon)
            }
            if subscriptions[row.id] == nil {
                subscriptions[row.id] = subscriptions.count
                chart.node("sub\(subscriptions.count - 1)", row.name)
            }
            edges.append((topics[row.key]!, subscriptions[row.id]!))
        }
        for edge in edges { chart.edge("topic\(edge.topic)", "sub\(edge.subscription)") }
        return chart.text
    }
}
