// swift-tools-version: 6.2
// The `@ObservableState` macro: Integrations/Macros/README.md. A separate package, so that
// the library keeps no dependency and its users never resolve swift-syntax.
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "ActionPipeMacros",
    // The library's own platforms: the macro's expansions use its API.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        // `import ActionPipeMacros`: the macro, and ActionPipe re-exported.
        .library(name: "ActionPipeMacros", targets: ["ActionPipeMacros"])
    ],
    dependencies: [
        .package(name: "ActionPipe", path: "../.."),
        // 602 matches the Swift 6.2 toolchain, 603 the 6.3 one (with 602, a 6.3 compiler
        // prints a harmless "Internal Error: DecodingError" as each macro plug-in closes).
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
    ],
    targets: [
        // The compiler plug-in: the expansion, run by the compiler, never linked into an app.
        .macro(
            name: "ActionPipeMacrosPlugin",
            dependencies: [
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
            ]
        ),
        // The macros' declarations, which an app imports.
        .target(
            name: "ActionPipeMacros",
            dependencies: [
                "ActionPipeMacrosPlugin",
                .product(name: "ActionPipe", package: "ActionPipe"),
            ]
        ),
        // The expansions, source to source, and each diagnostic.
        .testTarget(
            name: "ActionPipeMacrosPluginTests",
            dependencies: [
                "ActionPipeMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
            ]
        ),
        // What an app sees: checked Sendable, atomic compound writes, observers, no cycle.
        .testTarget(name: "ActionPipeMacrosTests", dependencies: ["ActionPipeMacros"]),
        // The examples of the repository's README and Docs/GettingStarted.md that use the
        // macro (```swift macro blocks; the library's own doc tests skip them), compiled and
        // run by the library's DocSnippetsPlugin: DocSnippets.txt names the files.
        .testTarget(
            name: "ActionPipeMacrosDocTests",
            dependencies: ["ActionPipeMacros"],
            exclude: ["DocSnippets.txt"],
            plugins: [.plugin(name: "DocSnippetsPlugin", package: "ActionPipe")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
