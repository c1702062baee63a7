// DocSnippetExtractor <input.md> <output.swift> <display path> [plain|macro]
//
// Turns the fenced Swift blocks of one Markdown file into a Swift Testing source file. Run by
// DocSnippetsPlugin during the build of ActionPipeDocTests, once per documentation file; see
// MarkdownSnippets.swift for the fence rules and SwiftTestEmitter.swift for the generated code.
import Foundation

let arguments = CommandLine.arguments
// The mode says which blocks to compile (ExtractionMode): `plain` unless told.
guard arguments.count == 4 || arguments.count == 5,
    let mode = ExtractionMode(rawValue: arguments.count == 5 ? arguments[4] : "plain")
else {
    FileHandle.standardError.write(
        Data(
            "usage: DocSnippetExtractor <input.md> <output.swift> <display path> [plain|macro]\n"
                .utf8)
    )
    exit(2)
}
let (inputPath, outputPath, displayPath) = (arguments[1], arguments[2], arguments[3])

do {
    let markdown = try String(contentsOfFile: inputPath, encoding: .utf8)
    let snippets: [Snippet]
    do {
        snippets = try extractSnippets(from: markdown).filter(mode.includes)
    } catch {
        // `file:line: error:` is the format SwiftPM and Xcode turn into a clickable diagnostic.
        let diagnostic = "\(inputPath):\(error.line): error: \(error.message)\n"
        FileHandle.standardError.write(Data(diagnostic.utf8))
        exit(1)
    }
    let swift = renderSwiftFile(
        snippets: snippets,
        markdownPath: inputPath,
        displayPath: displayPath,
        imports: mode.imports
    )
    // Unchanged output keeps its timestamp, so a `swift test` after a `swift build` (each relinks
    // this tool and reruns it) does not recompile every doc test.
    if (try? String(contentsOfFile: outputPath, encoding: .utf8)) != swift {
        try swift.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }
} catch {
    FileHandle.standardError.write(Data("\(inputPath): error: \(error)\n".utf8))
    exit(1)
}
