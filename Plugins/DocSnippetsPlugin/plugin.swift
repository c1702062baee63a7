import Foundation
import PackagePlugin

/// Turns the package's Markdown documentation into Swift Testing tests ("docs are tests").
///
/// Every guide (`Docs/*.md`, which the DocC catalog links to) and `README.md` gets one build
/// command running `DocSnippetExtractor` (or, for a target with a `DocSnippets.txt`, the
/// documents that file names: Integrations/Macros applies the plugin that way),
/// which writes one Swift file into the plugin work directory; SwiftPM compiles those files into
/// the target this plugin is applied to (ActionPipeDocTests).
@main
struct DocSnippetsPlugin: BuildToolPlugin {
    /// Creates one extraction command per Markdown file.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let extractor = try context.tool(named: "DocSnippetExtractor").url
        let root = context.package.directoryURL
        // The documents the target lists, or else the package's guides and README.
        let listed = try Self.documents(of: target)
        let documents = try listed ?? Self.markdownFiles(in: root).map { (path: $0, mode: "plain") }
        var outputNames: Set<String> = []
        return try documents.map { document in
            let input = root.appending(path: document.path).standardizedFileURL
            // Named after the package-relative path (`../` dropped), not the file name, so that
            // a guide named README.md could not overwrite the output of the top-level README.md.
            let displayPath = Self.displayPath(document.path)
            let outputName = "Doc_\(Self.sanitized(displayPath)).swift"
            guard outputNames.insert(outputName).inserted else {
                throw PluginError(message: "two documentation files map to \(outputName)")
            }
            let output = context.pluginWorkDirectoryURL.appending(path: outputName)
            return .buildCommand(
                displayName: "Extracting Swift snippets from \(displayPath)",
                executable: extractor,
                arguments: [
                    input.path(percentEncoded: false),
                    output.path(percentEncoded: false),
                    displayPath,
                    document.mode,
                ],
                // The Markdown is the only input: editing it re-runs the extractor. (SwiftPM
                // adds the executable itself, so changing the extractor also re-runs it.)
                inputFiles: [input],
                outputFiles: [output]
            )
        }
    }

    /// The documents a target names in a `DocSnippets.txt` of its folder, or nil if it has none
    /// (then the package's own guides and README, in plain mode).
    ///
    /// Each line is a mode (`plain` or `macro`, see the extractor's `ExtractionMode`) and a
    /// Markdown path relative to the package; `#` starts a comment. Integrations/Macros uses it
    /// to compile the `macro` blocks of the repository's README and GettingStarted.
    static func documents(of target: any Target) throws -> [(path: String, mode: String)]? {
        let list = target.directoryURL.appending(path: "DocSnippets.txt")
        guard FileManager.default.fileExists(atPath: list.path(percentEncoded: false)) else {
            return nil
        }
        return try String(contentsOf: list, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .map { $0.prefix(while: { $0 != "#" }).split(separator: " ").map(String.init) }
            .filter { !$0.isEmpty }
            .map { words in
                guard words.count == 2, ["plain", "macro"].contains(words[0]) else {
                    throw PluginError(
                        message: "\(list.path): expected '<plain|macro> <path>', got '\(words)'")
                }
                return (path: words[1], mode: words[0])
            }
    }

    /// The path shown in test names: `../../Docs/GettingStarted.md` → `Docs/GettingStarted.md`.
    static func displayPath(_ path: String) -> String {
        var components = path.split(separator: "/")
        while components.first == ".." || components.first == "." { components.removeFirst() }
        return components.joined(separator: "/")
    }

    /// Package-relative paths of the documentation: the guides in `Docs/` sorted by name, then
    /// `README.md`. (The catalog's landing page, `ActionPipe.md`, is not among them: its
    /// example is not a test.)
    ///
    /// Sorting keeps the command list, and therefore the build, deterministic.
    static func markdownFiles(in root: URL) throws -> [String] {
        let fileManager = FileManager.default
        let docs = root.appending(path: Self.guides)
        var paths: [String] = []
        if fileManager.fileExists(atPath: docs.path(percentEncoded: false)) {
            paths = try fileManager.contentsOfDirectory(atPath: docs.path(percentEncoded: false))
                .filter { $0.lowercased().hasSuffix(".md") && !$0.hasPrefix(".") }
                .sorted()
                .map { "\(Self.guides)/\($0)" }
        }
        let readme = root.appending(path: "README.md")
        if fileManager.fileExists(atPath: readme.path(percentEncoded: false)) {
            paths.append("README.md")
        }
        return paths
    }

    /// The folder of the guides, relative to the package.
    static let guides = "Docs"

    /// Replaces everything but ASCII letters, digits and `_` by `_` (`Docs/A.md` → `Docs_A_md`).
    static func sanitized(_ path: String) -> String {
        String(path.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    }
}

/// An error that stops the build with a readable message.
struct PluginError: Error, CustomStringConvertible {
    /// What went wrong.
    var message: String

    /// Shown by SwiftPM when the plugin fails.
    var description: String { message }
}
