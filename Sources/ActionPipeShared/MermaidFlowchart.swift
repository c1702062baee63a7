/// The Mermaid `flowchart` text every part's `mermaidDiagram` renders: one shared writer,
/// so the four diagrams share ids, escaping and layout.
///
/// Nodes are declared first, one a line, in the order added; then the edges, one a line.
/// Ids are made by the caller from a prefix and a number (`pipe0`, `stage1`), so they are
/// always valid Mermaid ids; labels are quoted and escaped here.
///
/// ```swift
/// var chart = MermaidFlowchart(direction: "LR")
/// chart.node("pipe0", "screen")
/// chart.node("pipe1", "controller")
/// chart.edge("pipe0", "pipe1")
/// chart.text  // "flowchart LR\n    pipe0[\"screen\"]\n    pipe1[\"controller\"]\n    pipe0 --> pipe1\n"
/// ```
package struct MermaidFlowchart: Sendable {
    /// A node's outline.
    package enum Shape: Sendable {
        /// `id["label"]`.
        case box
        /// `id(["label"])`: a stadium, for where things come in.
        case stadium
        /// `id[("label")]`: a cylinder, for where things end up.
        case cylinder
        /// `id{{"label"}}`: a hexagon, for topics.
        case hexagon
    }

    private var nodes: [String] = []
    private var edges: [String] = []
    private let direction: String

    /// An empty flowchart laid out in `direction` (`LR`, `TD`).
    package init(direction: String) { self.direction = direction }

    /// Declares a node.
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

    /// Adds an arrow from `from` to `to`, with an optional label on it.
    package mutating func edge(_ from: String, _ to: String, label: String? = nil) {
        let arrow = label.map { "-- \"\(Self.escape($0))\" -->" } ?? "-->"
        edges.append("    \(from) \(arrow) \(to)")
    }

    /// The diagram: the `flowchart` line, the nodes, then the edges, each line ending in a
    /// newline.
    package var text: String {
        (["flowchart " + direction] + nodes + edges).map { $0 + "\n" }.joined()
    }

    /// `label` made safe inside a quoted Mermaid label: quotes, brackets, braces, angle
    /// brackets, `#` and `|` become entity codes (`#quot;`, `#91;`, …), line breaks spaces.
    /// Parentheses stay: inside quotes they are text.
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
