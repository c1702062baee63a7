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
        for character in label {
            switch character {
            case "\"": escaped += "#quot;"
            case "#": escaped += "#35;"
            case "[": escaped += "#91;"
            case "]": escaped += "#93;"
            case "{": escaped += "#123;"
            case "}": escaped += "#125;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "|": escaped += "#124;"
            case "\n", "\r", "\r\n": escaped += " "
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
