import ActionPipeConcurrency

extension OperationTreeNode {
    /// The tree below this node as a Mermaid flowchart, top down: one box per node and an
    /// arrow to each child, in the order added.
    ///
    /// Ids are `node0`, `node1`, … in depth-first order. A node with several parents appears
    /// once, with an arrow from each (it shares its limit over its places).
    ///
    /// - Complexity: O(n + e) for n nodes and e parent–child links, one lock per node.
    public var mermaidDiagram: String {
        var chart = MermaidFlowchart(direction: "TD")
        var numbers: [ObjectIdentifier: Int] = [:]
        var stack: [any _TreeNodeErased] = [self]
        var edges: [(parent: ObjectIdentifier, child: ObjectIdentifier)] = []
        var seenEdges: Set<[ObjectIdentifier]> = []
        while let node = stack.popLast() {
            guard numbers[node.id] == nil else { continue }
            numbers[node.id] = numbers.count
            chart.node("node\(numbers.count - 1)", node.name)
            let children = node.childNodes
            for child in children where seenEdges.insert([node.id, child.id]).inserted {
                edges.append((node.id, child.id))
            }
            stack.append(contentsOf: children.reversed())
        }
        for edge in edges {
            if let parent = numbers[edge.parent], let child = numbers[edge.child] {
                chart.edge("node\(parent)", "node\(child)")
            }
        }
        return chart.text
    }
}
