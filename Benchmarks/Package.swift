// swift-tools-version:6.1
import PackageDescription

// Benchmarks for Bindings, against OpenCombine, in one process. A separate package so that
// users of the library never resolve OpenCombine. Run it in release:
//
//     swift run -c release --package-path Benchmarks compare [--json PATH]
//
// See Docs/Performance.md.
let package = Package(
    name: "BindingsBenchmarks",
    dependencies: [
        // `name:` so that the product resolves whatever the clone's folder is called.
        .package(name: "Bindings", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // Counts heap allocations (by interposing malloc and friends) and reads malloc's
        // bytes in use; also an opaque call that keeps the optimizer from deleting stores.
        .target(name: "CMallocCounter"),
        .executableTarget(
            name: "compare",
            dependencies: [
                .product(name: "Bindings", package: "Bindings"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                "CMallocCounter",
            ],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
