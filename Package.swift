// swift-tools-version: 6.2
// The library depends on no package. Peers and the benchmark harness live in
// Benchmarks/Package.swift, a separate package, so users of ActionPipe never resolve them.
import PackageDescription

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
    ],
    targets: [
        // The concurrency kernel: the one lock, lock-protected box, read-mostly snapshot,
        // weak box and id source every part uses (`package` access; the Internals article),
        // and the little public vocabulary the parts share (the nesting limit).
        .target(name: "ActionPipeConcurrency"),
        // The five parts: each depends on the kernel only, so the compiler keeps them
        // independent of one another.
        .target(name: "ActionPipeCore", dependencies: ["ActionPipeConcurrency"]),
        .target(name: "ActionPipeBus", dependencies: ["ActionPipeConcurrency"]),
        .target(name: "ActionPipeState", dependencies: ["ActionPipeConcurrency"]),
        .target(name: "ActionPipeTree", dependencies: ["ActionPipeConcurrency"]),
        .target(name: "ActionPipePlumbing", dependencies: ["ActionPipeConcurrency"]),
        // The umbrella: re-exports the parts.
        .target(
            name: "ActionPipe",
            dependencies: [
                "ActionPipeConcurrency", "ActionPipeCore", "ActionPipeBus", "ActionPipeState",
                "ActionPipeTree", "ActionPipePlumbing",
            ]
        ),
        // Test tools, for apps and for the package's own tests; no dependency either.
        .target(name: "ActionPipeTesting", dependencies: ["ActionPipeConcurrency", "ActionPipe"]),
        .executableTarget(name: "ActionPipeDemo", dependencies: ["ActionPipe"]),
        .executableTarget(name: "DocSnippetExtractor"),
        .plugin(
            name: "DocSnippetsPlugin",
            capability: .buildTool(),
            dependencies: ["DocSnippetExtractor"]
        ),
        .testTarget(
            name: "ActionPipeTests",
            dependencies: ["ActionPipe", "ActionPipeTree", "ActionPipeTesting"]),
        .testTarget(
            name: "ActionPipeDocTests",
            dependencies: ["ActionPipe", "ActionPipeTesting"],
            plugins: ["DocSnippetsPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
