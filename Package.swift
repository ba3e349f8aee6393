// swift-tools-version:6.2
import PackageDescription

// Bindings depends on nothing beyond the Swift toolchain. Only `Benchmarks/Package.swift`
// names other packages, so that users of the library never resolve them.
let package = Package(
    name: "Bindings",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Bindings", targets: ["Bindings"]),
        .library(name: "FoundationBindings", targets: ["FoundationBindings"]),
        .executable(name: "bindings-demo", targets: ["bindings-demo"]),
    ],
    targets: [
        .target(name: "Bindings"),
        .target(name: "FoundationBindings", dependencies: ["Bindings"]),
        .executableTarget(name: "bindings-demo", dependencies: ["Bindings", "FoundationBindings"]),
        .testTarget(
            name: "BindingsTests",
            dependencies: ["Bindings"]
        ),
        .testTarget(
            name: "FoundationBindingsTests",
            dependencies: ["FoundationBindings", "Bindings"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
