import Foundation
import PackagePlugin

/// Turns the package's Markdown documentation into Swift Testing tests ("docs are tests").
///
/// Every guide (`Docs/*.md`, which the DocC catalog links to) and `README.md` gets one build
/// command running `DocSnippetExtractor`,
/// which writes one Swift file into the plugin work directory; SwiftPM compiles those files into
/// the target this plugin is applied to (ActionPipeDocTests).
@main
struct DocSnippetsPlugin: BuildToolPlugin {
    /// Creates one extraction command per Markdown file.
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let extractor = try context.tool(named: "DocSnippetExtractor").url
        let root = context.package.directoryURL
        var outputNames: Set<String> = []
        return try Self.markdownFiles(in: root).map { relativePath in
            let input = root.appending(path: relativePath)
            // Derived from the package-relative path, not the file name, so that a guide named
            // README.md could not overwrite the output of the top-level README.md.
            let outputName = "Doc_\(Self.sanitized(relativePath)).swift"
            guard outputNames.insert(outputName).inserted else {
                throw PluginError(message: "two documentation files map to \(outputName)")
            }
            let output = context.pluginWorkDirectoryURL.appending(path: outputName)
            return .buildCommand(
                displayName: "Extracting Swift snippets from \(relativePath)",
                executable: extractor,
                arguments: [
                    input.path(percentEncoded: false),
                    output.path(percentEncoded: false),
                    relativePath,
                ],
                // The Markdown is the only input: editing it re-runs the extractor. (SwiftPM
                // adds the executable itself, so changing the extractor also re-runs it.)
                inputFiles: [input],
                outputFiles: [output]
            )
        }
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
