import Foundation
import Testing

@Suite("Diagrams: every guide's Mermaid picture is the text its compiled example expects")
struct GuideDiagramTests {
    /// The package's root, from this file's place in it.
    private static let root = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The lines of each fenced block of `markdown`, with its info string, in order.
    private static func blocks(_ markdown: String) -> [(info: String, lines: [String])] {
        var blocks: [(info: String, lines: [String])] = []
        var current: (info: String, lines: [String])?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let block = current {
                    blocks.append(block)
                    current = nil
                } else {
                    current = (String(trimmed.dropFirst(3)), [])
                }
            } else {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    @Test(
        "each ```mermaid block is followed by a ```swift block that expects exactly its lines",
        arguments: ["CoreActions.md", "PlumbingGuide.md", "OperationTree.md", "EventBusGuide.md"])
    func pictureMatchesExample(guide: String) throws {
        let markdown = try String(
            contentsOf: Self.root.appending(path: "Docs/\(guide)"),
            encoding: .utf8)
        let blocks = Self.blocks(markdown)
        let pictures = blocks.indices.filter { blocks[$0].info == "mermaid" }
        #expect(pictures.count == 1, "\(guide) should show one diagram")
        for index in pictures {
            let picture = blocks[index].lines.map { $0.trimmingCharacters(in: .whitespaces) }
            let example = try #require(
                blocks[(index + 1)...].first { $0.info == "swift" }, "no example after the picture")
            let code = example.lines.map { $0.trimmingCharacters(in: .whitespaces) }
            // The picture's lines, in order and consecutive, then the string's blank last line.
            let found = code.indices.contains { start in
                start + picture.count < code.count
                    && Array(code[start..<start + picture.count]) == picture
                    && code[start + picture.count] == ""
            }
            #expect(found, "\(guide): the example does not expect the picture shown")
        }
    }
}
