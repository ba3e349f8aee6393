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
        // The per-thread state that the library's hot paths read (C11 thread-local
        // storage, which Swift cannot declare). Not a product: part of `Bindings`.
        .target(name: "CBindingsThreadLocal"),
        .target(name: "Bindings", dependencies: ["CBindingsThreadLocal"]),
        .target(name: "FoundationBindings", dependencies: ["Bindings"]),
        // The process monitor that `bindings-demo` runs: readers of /proc, models, views and
        // the terminal renderer. Not in any product (only the demo and its tests use it), so
        // its API is `package`, which release builds of the tests can import.
        .target(name: "ProcessMonitor", dependencies: ["Bindings", "FoundationBindings"]),
        .executableTarget(name: "bindings-demo", dependencies: ["ProcessMonitor"]),
        // The helpers every test suite shares (recorders, locks, counters, thread helpers).
        // Not in any product, so users of the library never see it.
        .target(
            name: "BindingsTestSupport",
            dependencies: ["Bindings"],
            path: "Tests/BindingsTestSupport"
        ),
        .testTarget(
            name: "BindingsTests",
            dependencies: ["Bindings", "BindingsTestSupport"]
        ),
        .testTarget(
            name: "ProcessMonitorTests",
            dependencies: ["ProcessMonitor", "Bindings"],
            // Recorded /proc trees, read from disk by path (see Support/Fixtures.swift).
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FoundationBindingsTests",
            dependencies: ["FoundationBindings", "Bindings", "BindingsTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
