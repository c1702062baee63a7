// swift-tools-version: 6.2
// A small HTTP service built on ActionPipe, Hummingbird and swift-log: Examples/README.md.
// A separate package, so that users of the library never resolve these dependencies.
import PackageDescription

let package = Package(
    name: "ActionPipeExamples",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ActionPipe", path: ".."),
        // `--postgres URL`: the order events shared between instances (Integrations/Postgres).
        .package(name: "ActionPipePostgres", path: "../Integrations/Postgres"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        // 1.16: the tests implement `LogHandler.log(event:)`.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
    ],
    targets: [
        // The service: routes, the five parts, the instrumentation hook.
        .target(
            name: "OrdersService",
            dependencies: [
                .product(name: "ActionPipe", package: "ActionPipe"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `swift run --package-path Examples OrdersServiceApp`: starts the service.
        // `--postgres URL` bridges the order events through PostgreSQL: the only target that
        // links postgres-nio.
        .executableTarget(
            name: "OrdersServiceApp",
            dependencies: [
                "OrdersService",
                .product(name: "ActionPipePostgres", package: "ActionPipePostgres"),
            ]
        ),
        .testTarget(
            name: "OrdersServiceTests",
            dependencies: [
                "OrdersService",
                // The library's test tools: the test clock and the recorders.
                .product(name: "ActionPipeTesting", package: "ActionPipe"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
