// swift-tools-version: 6.2
// The library depends on no package. Peers and the benchmark harness live in
// Benchmarks/Package.swift, a separate package, so users of ActionPipe never resolve them.
import PackageDescription

let package = Package(
    name: "ActionPipe",
    // Synchronization's Mutex and Atomic need these OS versions on Apple platforms.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ActionPipe", targets: ["ActionPipe"])
    ],
    targets: [
        // The concurrency kernel: the one lock, lock-protected box, read-mostly snapshot,
        // weak box and id source every part uses (`package` access; Docs/Internals.md).
        .target(name: "ActionPipeKernel"),
        .target(name: "ActionPipe", dependencies: ["ActionPipeKernel"]),
        .executableTarget(name: "ActionPipeDemo", dependencies: ["ActionPipe"]),
        .executableTarget(name: "DocSnippetExtractor"),
        .plugin(
            name: "DocSnippetsPlugin",
            capability: .buildTool(),
            dependencies: ["DocSnippetExtractor"]
        ),
        .testTarget(name: "ActionPipeTests", dependencies: ["ActionPipe"]),
        .testTarget(
            name: "ActionPipeDocTests",
            dependencies: ["ActionPipe"],
            plugins: ["DocSnippetsPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
