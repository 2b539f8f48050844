// swift-tools-version:6.2
import PackageDescription

/// Our own targets build in Swift 6 mode with warnings as errors and the
/// upcoming features ARCHITECTURE.md asks for. Dependencies keep their own settings.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Onward",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "onward", targets: ["onward"]),
        .library(name: "OnwardCore", targets: ["OnwardCore"]),
        .library(name: "Timetable", targets: ["Timetable"]),
        .library(name: "GTFS", targets: ["GTFS"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        // Domain values, dates and clocks. Foundation only.
        .target(name: "OnwardCore", swiftSettings: strict),
        // The immutable in-memory timetable and its queries. Foundation only.
        .target(name: "Timetable", dependencies: ["OnwardCore"], swiftSettings: strict),
        // The system zlib (for CRC-32 checks of zip entries).
        .systemLibrary(name: "COnwardZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // GTFS static: CSV, validation, building a Timetable.
        .target(
            name: "GTFS",
            dependencies: ["OnwardCore", "Timetable", "COnwardZlib", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: strict
        ),
        // Codable wire types shared by the CLI's --json and (later) the HTTP API.
        .target(name: "API", dependencies: ["OnwardCore"], swiftSettings: strict),
        // Composition root: turns configuration into a loaded network. Ships the default network.
        .target(
            name: "App",
            dependencies: ["OnwardCore", "Timetable", "GTFS", "API"],
            resources: [.copy("Resources/DefaultNetwork")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "onward",
            dependencies: ["App", "OnwardCore", "Timetable", "GTFS", "API",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // Test support: inline GTFS feeds and fixture paths.
        .target(name: "OnwardTesting", dependencies: ["OnwardCore", "Timetable", "GTFS"], swiftSettings: strict),
        // Release-built benchmarks: `swift run -c release onward-bench`.
        .executableTarget(
            name: "onward-bench",
            dependencies: ["OnwardCore", "Timetable", "GTFS", "App"],
            swiftSettings: strict
        ),
        .testTarget(name: "OnwardCoreTests", dependencies: ["OnwardCore"], swiftSettings: strict),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "Timetable", "OnwardCore", "OnwardTesting"], swiftSettings: strict),
        .testTarget(name: "TimetableTests", dependencies: ["GTFS", "Timetable", "OnwardCore", "OnwardTesting", "App"], swiftSettings: strict),
        .testTarget(name: "OnwardCLITests", dependencies: ["OnwardTesting", "API"], swiftSettings: strict),
    ]
)
