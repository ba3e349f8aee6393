// swift-tools-version:6.1
import PackageDescription

// Bindings depends on nothing beyond the Swift toolchain. Only `Benchmarks/Package.swift`
// names other packages, so that users of the library never resolve them.
let package = Package(
    name: "Bindings",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Bindings", targets: ["Bindings"]),
        .library(name: "FoundationBindings", targets: ["FoundationBindings"]),
    ],
    targets: [
        .target(name: "Bindings"),
        .target(name: "FoundationBindings", dependencies: ["Bindings"]),
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
