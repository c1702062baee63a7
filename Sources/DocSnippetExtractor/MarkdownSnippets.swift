/// What the generator does with one fenced Swift block.
enum SnippetKind: Equatable {
    /// ```` ```swift ````: the block becomes the body of one test function.
    case test
    /// ```` ```swift file ````: the block is emitted at file scope (types, extensions, functions).
    case fileScope
}

/// One fenced Swift block taken from a Markdown file.
struct Snippet: Equatable {
    /// How the block is emitted.
    var kind: SnippetKind
    /// Marked `macro` (```` ```swift macro ````, ```` ```swift file macro ````): the block uses
    /// `@ObservableState`, so it compiles only in the Integrations/Macros package, whose tests
    /// apply this extractor to the same Markdown (see `ExtractionMode`).
    var needsMacros: Bool
    /// 1-based Markdown line of the opening fence.
    var fenceLine: Int
    /// 1-based Markdown line of the first code line (the line after the fence).
    var firstLine: Int
    /// The code lines, verbatim: indentation is kept so that compiler columns match the Markdown.
    var lines: [String]
}

/// A problem in the Markdown that must fail the build rather than silently drop a snippet.
struct MarkdownError: Error {
    /// 1-based Markdown line the problem is reported at.
    var line: Int
    /// Human-readable description.
    var message: String
}

/// An opening code fence as recognised by ``parseFence(_:)``.
private struct Fence {
    /// The fence character: a backtick or a tilde.
    var character: Character
    /// Number of fence characters; a closing fence needs at least this many.
    var length: Int
    /// The info string after the fence, trimmed (e.g. `swift file`).
    var info: String
}

/// Extracts the Swift snippets of a Markdown document.
///
/// Follows CommonMark fences closely enough for documentation: ```` ``` ```` and `~~~` fences of
/// three or more characters, closed by a run of the same character at least as long. Any
/// indentation before a fence is accepted (fences nested in list items are common) and code lines
/// are kept verbatim, because Swift ignores indentation and keeping it makes columns in
/// diagnostics line up with the Markdown.
///
/// - Throws: ``MarkdownError`` for an unterminated fence or an unknown `swift` marker, so that a
///   typo in the docs fails the build instead of skipping or misplacing a snippet.
func extractSnippets(from markdown: String) throws(MarkdownError) -> [Snippet] {
    // Keeping empty subsequences keeps blank lines, so indices are line numbers. "\r\n" is a
    // single Character in Swift, hence the explicit list (the line breaks the compiler counts).
    let lines = markdown.split(
        omittingEmptySubsequences: false,
        whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    ).map(String.init)
    var snippets: [Snippet] = []
    var index = 0
    while index < lines.count {
        guard let fence = parseFence(lines[index]) else {
            index += 1
            continue
        }
        let fenceLine = index + 1
        guard let closing = lines[(index + 1)...].firstIndex(where: { closes(fence, $0) }) else {
            throw MarkdownError(line: fenceLine, message: "code fence is never closed")
        }
        if let (kind, needsMacros) = try snippetKind(info: fence.info, line: fenceLine) {
            snippets.append(
                Snippet(
                    kind: kind,
                    needsMacros: needsMacros,
                    fenceLine: fenceLine,
                    firstLine: fenceLine + 1,
                    lines: Array(lines[(index + 1)..<closing])
                )
            )
        }
        index = closing + 1
    }
    return snippets
}

/// Returns the opening fence on `line`, or nil if the line does not open a code block.
private func parseFence(_ line: String) -> Fence? {
    let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
    guard let character = trimmed.first, character == "`" || character == "~" else { return nil }
    let length = trimmed.prefix(while: { $0 == character }).count
    guard length >= 3 else { return nil }
    let info = trimmed.dropFirst(length).trimmingWhitespace()
    // CommonMark: a backtick fence's info string cannot contain backticks (that is inline code).
    if character == "`" && info.contains("`") { return nil }
    return Fence(character: character, length: length, info: info)
}

/// Whether `line` closes `fence`: only fence characters (at least as many) and whitespace.
private func closes(_ fence: Fence, _ line: String) -> Bool {
    let trimmed = line.trimmingWhitespace()
    return trimmed.count >= fence.length && trimmed.allSatisfy { $0 == fence.character }
}

/// Maps an info string to a snippet kind, and whether the block needs the macros; nil means
/// "not emitted".
///
/// Only the language `swift` (any case) is considered; every other fence is prose for humans.
private func snippetKind(
    info: String, line: Int
) throws(MarkdownError) -> (kind: SnippetKind, needsMacros: Bool)? {
    let words = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let language = words.first, language.lowercased() == "swift" else { return nil }
    let markers = Set(words.dropFirst())
    if markers.contains("no-run") || markers.contains("skip") { return nil }
    if let unknown = markers.subtracting(["file", "macro"]).sorted().first {
        throw MarkdownError(
            line: line,
            message:
                "unknown swift fence marker '\(unknown)' (use 'file', 'macro', 'no-run' or 'skip')"
        )
    }
    return (markers.contains("file") ? .fileScope : .test, markers.contains("macro"))
}

/// Which blocks of a document one test target compiles.
enum ExtractionMode: String {
    /// The library's own doc tests (ActionPipeDocTests): every block not marked `macro`.
    case plain
    /// The macro package's doc tests: the blocks marked `macro`, and every file-scope block
    /// (their declarations may use types a plain block declares; the plain tests run in the
    /// library already).
    case macro

    /// Whether this mode compiles `snippet`.
    func includes(_ snippet: Snippet) -> Bool {
        switch self {
        case .plain: !snippet.needsMacros
        case .macro: snippet.needsMacros || snippet.kind == .fileScope
        }
    }

    /// The modules the generated file imports, besides Foundation and Testing.
    var imports: [String] {
        switch self {
        case .plain: ["ActionPipe"]
        case .macro: ["ActionPipe", "ActionPipeMacros"]
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(self.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }
}
