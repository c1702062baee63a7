// swift-tools-version: 6.2
// The library depends on no package. Peers and the benchmark harness live in
// Benchmarks/Package.swift, a separate package, so users of ActionPipe never resolve them.
import PackageDescription

// What each of the five parts depends on, and nothing more: the concurrency primitives and
// the shared vocabulary.
let partDependencies: [Target.Dependency] = ["ActionPipeConcurrency", "ActionPipeShared"]

// CI's sanitizer builds set this: they run the unit specs only, so they skip compiling the doc
// snippets (ActionPipeDocTests, with the extractor and its plugin) and the demo.
let unitSpecsOnly = Context.environment["ACTIONPIPE_UNIT_SPECS_ONLY"] == "1"

let package = Package(
    name: "ActionPipe",
    // Synchronization's Mutex and Atomic need these OS versions on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // Everything: `import ActionPipe`.
        .library(name: "ActionPipe", targets: ["ActionPipe"]),
        // One part alone, for an app that wants only it.
        .library(name: "ActionPipeCore", targets: ["ActionPipeCore"]),
        .library(name: "ActionPipeBus", targets: ["ActionPipeBus"]),
        .library(name: "ActionPipeState", targets: ["ActionPipeState"]),
        .library(name: "ActionPipeTree", targets: ["ActionPipeTree"]),
        .library(name: "ActionPipePlumbing", targets: ["ActionPipePlumbing"]),
        // Tools for an app's tests: a manual clock, recorders, a manual bus executor.
        .library(name: "ActionPipeTesting", targets: ["ActionPipeTesting"]),
        // The repository's own: Integrations/Macros applies it to compile the README's and
        // GettingStarted's `@ObservableState` examples (```swift macro blocks) as its tests.
        .plugin(name: "DocSnippetsPlugin", targets: ["DocSnippetsPlugin"]),
    ],
    targets: [
        // The concurrency primitives every part builds on: the one lock and lock-protected
        // box, the read-mostly snapshots and the per-thread records they are read through,
        // nesting depth, the weak box, the id source (`package` access, no public API; the
        // module's README and the Internals article). The only module that may use
        // `Unmanaged`, `unowned(unsafe)` and the unsafe casts.
        .target(name: "ActionPipeConcurrency", exclude: ["README.md"]),
        // The public vocabulary the parts share: registration tokens and bags, retention,
        // diagnostics, instrumentation, the nesting limit; and, `package`, the contract of
        // a token's registry and the Mermaid writer of the parts' diagrams.
        .target(name: "ActionPipeShared", dependencies: ["ActionPipeConcurrency"]),
        // The five parts: each depends on the two modules above only, so the compiler keeps
        // them independent of one another. Each keeps a README of its invariants.
        .target(name: "ActionPipeCore", dependencies: partDependencies, exclude: ["README.md"]),
        .target(name: "ActionPipeBus", dependencies: partDependencies, exclude: ["README.md"]),
        .target(name: "ActionPipeState", dependencies: partDependencies, exclude: ["README.md"]),
        .target(name: "ActionPipeTree", dependencies: partDependencies, exclude: ["README.md"]),
        .target(
            name: "ActionPipePlumbing", dependencies: partDependencies, exclude: ["README.md"]),
        // The umbrella: re-exports the parts and the shared vocabulary.
        .target(
            name: "ActionPipe",
            dependencies: [
                "ActionPipeConcurrency", "ActionPipeShared", "ActionPipeCore", "ActionPipeBus",
                "ActionPipeState", "ActionPipeTree", "ActionPipePlumbing",
            ]
        ),
        // Test tools, for apps and for the package's own tests; no dependency either.
        .target(name: "ActionPipeTesting", dependencies: ["ActionPipeConcurrency", "ActionPipe"]),
        .executableTarget(name: "ActionPipeDemo", dependencies: ["ActionPipe"]),
        // Docs are tests: the plugin runs the extractor over Docs/*.md and README.md, and the
        // doc-test target compiles each ```swift block as a test (CONTRIBUTING.md).
        .executableTarget(name: "DocSnippetExtractor"),
        .plugin(
            name: "DocSnippetsPlugin",
            capability: .buildTool(),
            dependencies: ["DocSnippetExtractor"]
        ),
        .testTarget(
            name: "ActionPipeTests",
            dependencies: [
                "ActionPipe", "ActionPipeTree", "ActionPipeTesting", "ActionPipeConcurrency",
            ],
            exclude: ["README.md"]),
        .testTarget(
            name: "ActionPipeDocTests",
            dependencies: ["ActionPipe", "ActionPipeTesting"],
            plugins: ["DocSnippetsPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

if unitSpecsOnly {
    let docOnly: Set = [
        "ActionPipeDemo", "DocSnippetExtractor", "DocSnippetsPlugin", "ActionPipeDocTests",
    ]
    package.targets.removeAll { docOnly.contains($0.name) }
    package.products.removeAll { docOnly.contains($0.name) }
}
