import ActionPipeConcurrency

extension EventBus {
    /// The bus's subscriptions as a Mermaid flowchart, left to right: each topic (a hexagon,
    /// `Login.login`), each subscription (a box, named as in feedback), and an arrow from
    /// each topic to each of its subscriptions. Ids `topic0`, `sub0`, … follow subscription
    /// order; a union is one box with an arrow per topic; gone subscribers not yet pruned
    /// are shown.
    ///
    /// ```swift
    /// print(bus.mermaidDiagram)
    /// // flowchart LR
    /// //     topic0{{"Login.login"}}
    /// //     sub0["greeter"]
    /// //     topic0 --> sub0
    /// ```
    ///
    /// - Complexity: O(n log n) for n subscriptions, under one take of the bus's lock.
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
            let topic: Int
            if let known = topics[row.key] {
                topic = known
            } else {
                topic = topics.count
                topics[row.key] = topic
                chart.node("topic\(topic)", description, shape: .hexagon)
            }
            let subscription: Int
            if let known = subscriptions[row.id] {
                subscription = known
            } else {
                subscription = subscriptions.count
                subscriptions[row.id] = subscription
                chart.node("sub\(subscription)", row.name)
            }
            edges.append((topic, subscription))
        }
        for edge in edges { chart.edge("topic\(edge.topic)", "sub\(edge.subscription)") }
        return chart.text
    }
}
