import ActionPipeConcurrency

extension EventBus {
    /// The bus's subscriptions as a Mermaid flowchart, left to right: each topic subscribed
    /// to (a hexagon, `Login.login`, `Login.*`), each subscription (a box, named as its
    /// feedback names it), and an arrow from each topic to each subscription to it.
    ///
    /// ```swift
    /// let bus = EventBus(name: "session")
    /// bus.subscribe(BusTopic(Login.self, .login), name: "greeter") { _ in }
    /// print(bus.mermaidDiagram)
    /// // flowchart LR
    /// //     topic0{{"Login.login"}}
    /// //     sub0["greeter"]
    /// //     topic0 --> sub0
    /// ```
    ///
    /// Ids are `topic0`, `topic1`, … and `sub0`, `sub1`, …, both in subscription order (a
    /// topic numbered where it is first subscribed to); a union subscription is one box with
    /// an arrow from each of its topics. Every registered subscription is shown, including
    /// one whose subscriber has gone and that the next publish or subscribe prunes. Names
    /// are escaped like every diagram's.
    ///
    /// - Complexity: O(n log n) for n subscriptions, under one take of the bus's lock;
    ///   topic names are made after unlocking.
    public var mermaidDiagram: String {
        // Under the lock only copies: describing a subtype may run the app's code.
        let rows = _state.withLock { state in
            state.tables.values.flatMap { table in
                (table as? any _BusDiagramTable)?.diagramRows() ?? []
            }
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

/// A table that lists its subscriptions for ``EventBus/mermaidDiagram``.
protocol _BusDiagramTable {
    /// One row per entry: its subscription id, its key and its subscriber's name.
    func diagramRows() -> [(id: UInt64, key: BusEventKey, name: String)]
}

extension _BusTypedTable: _BusDiagramTable {
    /// Under the bus's lock; builds keys, runs no code of the app's (a subtype is boxed,
    /// not hashed).
    func diagramRows() -> [(id: UInt64, key: BusEventKey, name: String)] {
        var rows: [(id: UInt64, key: BusEventKey, name: String)] = []
        for erased in Array(entries.values) + more.values.joined() {
            let entry = knownCast(erased, to: _BusEntry<Event>.self)
            rows.append((entry.id, entry.key, entry.name))
        }
        return rows
    }
}
