/// The Mermaid `flowchart` writer every part's `mermaidDiagram` shares: nodes, then edges;
/// labels are quoted and escaped here.
package struct MermaidFlowchart: Sendable {
    /// A stadium, for where things come in; a cylinder, where they end up; a hexagon, topics.
    package enum Shape: Sendable {
        case box, stadium, cylinder, hexagon
    }

    private var nodes: [String] = []
    private var edges: [String] = []
    private let direction: String

    /// Laid out in `direction` (`LR`, `TD`).
    package init(direction: String) { self.direction = direction }

    package mutating func node(_ id: String, _ label: String, shape: Shape = .box) {
        let quoted = "\"" + Self.escape(label) + "\""
        let body =
            switch shape {
            case .box: "[\(quoted)]"
            case .stadium: "([\(quoted)])"
            case .cylinder: "[(\(quoted))]"
            case .hexagon: "{{\(quoted)}}"
            }
        nodes.append("    " + id + body)
    }

    /// An arrow, optionally labelled.
    package mutating func edge(_ from: String, _ to: String, label: String? = nil) {
        let arrow = label.map { "-- \"\(Self.escape($0))\" -->" } ?? "-->"
        edges.append("    \(from) \(arrow) \(to)")
    }

    package var text: String {
        (["flowchart " + direction] + nodes + edges).map { $0 + "\n" }.joined()
    }

    /// Characters Mermaid would read become entity codes, line breaks spaces.
    package static func escape(_ label: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(label.utf8.count)
        for character in label { escaped += entities[character] ?? String(character) }
        return escaped
    }

    private static let entities: [Character: String] = [
        "\"": "#quot;", "#": "#35;", "[": "#91;", "]": "#93;", "{": "#123;", "}": "#125;",
        "<": "#lt;", ">": "#gt;", "|": "#124;", "\n": " ", "\r": " ", "\r\n": " ",
    ]
}
