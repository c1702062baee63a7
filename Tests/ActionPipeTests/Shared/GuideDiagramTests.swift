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

    @Test("each ```mermaid block is followed by a ```swift block that expects exactly its lines")
    func picturesMatchExamples() throws {
        let folder = Self.root.appending(path: "Docs")
        let guides = try FileManager.default.contentsOfDirectory(atPath: folder.path())
            .filter { $0.hasSuffix(".md") }.sorted()
        var shown = 0
        for guide in guides {
            let markdown = try String(contentsOf: folder.appending(path: guide), encoding: .utf8)
            try check(markdown, guide)
            shown += Self.blocks(markdown).filter { $0.info == "mermaid" }.count
        }
        // The core's, the plumbing's, the tree's and the bus's pictures (Design.md).
        #expect(shown >= 4, "the guides show \(shown) diagrams")
    }

    private func check(_ markdown: String, _ guide: String) throws {
        let blocks = Self.blocks(markdown)
        let pictures = blocks.indices.filter { blocks[$0].info == "mermaid" }
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
