// swift-tools-version: 6.2
// ActionPipePostgres: the event bus across processes through PostgreSQL's LISTEN/NOTIFY and a
// table. A separate package, so that users of the library never resolve postgres-nio.
import PackageDescription

let package = Package(
    name: "ActionPipePostgres",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ActionPipePostgres", targets: ["ActionPipePostgres"])
    ],
    dependencies: [
        .package(name: "ActionPipe", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        .target(
            name: "ActionPipePostgres",
            dependencies: [
                .product(name: "ActionPipeBus", package: "ActionPipe"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A second process for the tests and the measurements: bridges a bus to PostgreSQL
        // and publishes or counts events (`--help`).
        .executableTarget(name: "ActionPipePostgresProbe", dependencies: ["ActionPipePostgres"]),
        .testTarget(
            name: "ActionPipePostgresTests",
            dependencies: [
                "ActionPipePostgres", "ActionPipePostgresProbe",
                .product(name: "ActionPipe", package: "ActionPipe"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
