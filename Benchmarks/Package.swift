// swift-tools-version: 6.2
// ActionPipe's benchmarks: a separate package, so the library's own manifest stays free of
// dependencies. It measures ActionPipe side by side with its baselines (plain closures, a
// naive pipe chain, OpenCombine) in one run; `./run` prints the targets of issue 4.
import PackageDescription

let package = Package(
    name: "ActionPipeBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // `name:` fixes how targets refer to the library whatever the clone's folder is called
        // (a path package's identity is otherwise its folder name).
        .package(name: "ActionPipe", path: ".."),
        // Only the MallocInterposer trait: with the default RuntimeInterposer trait off, the
        // Linux Swift 6.3 runtime-interposer package (not available here) is never resolved.
        .package(
            url: "https://github.com/ordo-one/benchmark.git", exact: "1.38.1",
            traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // The heap's bytes in use, for the memory rows (C: mallinfo2 is not in Swift's Glibc).
        .target(name: "CHeapStats", path: "Benchmarks/CHeapStats"),
        .executableTarget(
            name: "ActionPipeBenchmarks",
            dependencies: [
                .product(name: "ActionPipe", package: "ActionPipe"),
                .product(name: "ActionPipeTesting", package: "ActionPipe"),
                "CHeapStats",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/ActionPipeBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Thread scaling: T threads on one shared object against one object per thread
        // (`./run --scaling`). A plain executable, outside the benchmark harness, which runs
        // every benchmark on one thread; it needs only the library and Foundation. Its folder
        // is not in a folder named `Benchmarks`: the benchmark plugin would take it for one of
        // its benchmark executables (it takes every executable target whose folder's parent is
        // so named, this package's own `Benchmarks/` folder included).
        .executableTarget(
            name: "ActionPipeScaling",
            dependencies: [.product(name: "ActionPipe", package: "ActionPipe")],
            path: "Scaling/ActionPipeScaling"
        ),
    ],
    swiftLanguageModes: [.v6]
)
