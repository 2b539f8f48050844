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
    // What the code really needs: `Synchronization.Mutex` (Transit, Server, the upstream
    // client) is macOS 15 / iOS 18 / watchOS 11. The Foundation-only modules an app links
    // (OnwardCore, TransitSources, DataSources, Timetable, the adapters, Commute, Trips, SkiMap)
    // build there too.
    platforms: [.macOS(.v15), .iOS(.v18), .watchOS(.v11)],
    products: [
        .executable(name: "onward", targets: ["onward"]),
        .library(name: "OnwardCore", targets: ["OnwardCore"]),
        .library(name: "Timetable", targets: ["Timetable"]),
        .library(name: "GTFS", targets: ["GTFS"]),
        .library(name: "GTFSRealtime", targets: ["GTFSRealtime"]),
        .library(name: "DataSources", targets: ["DataSources"]),
        .library(name: "TransitSources", targets: ["TransitSources"]),
        .library(name: "GTFSSource", targets: ["GTFSSource"]),
        // For an app of one's own: commuting mode's alert engine, group trips' rules, the ski map. Foundation only.
        .library(name: "Commute", targets: ["Commute"]),
        .library(name: "Trips", targets: ["Trips"]),
        .library(name: "SkiMap", targets: ["SkiMap"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        // traits: [] keeps `swift build` and `swift test` from rebuilding it when they alternate (TOOLCHAIN.md).
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        // The PostgreSQL driver (a pool of connections, LISTEN/NOTIFY) and its TLS.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Bcrypt for local accounts' passwords (only HummingbirdBcrypt is used).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // `onward serve`'s settings: flags over environment over the JSON file, secrets redacted. Only the JSON
        // trait (its default, named so the trait flags never flip); `Reloading` (the reloading file provider)
        // would add swift-metrics and service-lifecycle's signals: turn it on when a reload needs it.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["JSON"]),
        // `FilePath`, the type swift-configuration's file providers take.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        // Spans (a request, a source fetch, a feed swap, a database call) through the tracing API; swift-otel
        // exports them over OTLP/HTTP when an endpoint is configured. Only the HTTP exporter: gRPC's would double the build.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
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
        // The protocol every source of stops, boards, services and alerts implements, and its
        // request and result types. Foundation only.
        .target(name: "TransitSources", dependencies: ["OnwardCore"], swiftSettings: strict),
        // Web Push: aes128gcm payload encryption (RFC 8291) and VAPID (RFC 8292), on swift-crypto. No I/O.
        .target(name: "WebPush", dependencies: [.product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        // Group trips: members, friends, shared positions, events and their privacy rules, as values. Foundation only.
        .target(name: "Trips", dependencies: ["OnwardCore"], swiftSettings: strict),
        // The ski area from OpenStreetMap and SRTM: runs by difficulty, lifts, heights, and routing by level. Foundation only.
        .target(name: "SkiMap", dependencies: ["OnwardCore"], swiftSettings: strict),
        // Commuting mode: get-off alerts as a state machine (positions, beacons, times in; alerts out). No I/O.
        .target(name: "Commute", dependencies: ["OnwardCore"], swiftSettings: strict),
        // The HTTP seam (method, body, cache, coalescing, budget), polling with backoff, the XML
        // reader the upstream adapters share. Foundation only.
        .target(name: "DataSources", dependencies: ["OnwardCore", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        // GTFS-Realtime: generated protobuf code (committed) and its application to a Timetable as an overlay.
        .target(
            name: "GTFSRealtime",
            dependencies: ["OnwardCore", "Timetable", "DataSources", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Generated/README.md", "Generated/gtfs-realtime.proto"],
            swiftSettings: strict
        ),
        // The GTFS network with its realtime feeds as a source: the live state, the one realtime
        // apply path and polling loop, and the protocol's answers from the timetable.
        .target(name: "GTFSSource", dependencies: ["OnwardCore", "TransitSources", "DataSources", "Timetable", "GTFSRealtime"],
                swiftSettings: strict),
        // National Rail Darwin (OpenLDBWS, SOAP/XML, token) as a source; ships the UK station list (ODbL). Foundation only.
        .target(name: "NationalRail", dependencies: ["OnwardCore", "DataSources", "TransitSources"],
                resources: [.copy("Resources")], swiftSettings: strict),
        // The CTA Bus Tracker (JSON or XML, API key) as a source: predictions, bulletins, browse, vehicles. Foundation only.
        .target(name: "CTABusTracker", dependencies: ["OnwardCore", "DataSources", "TransitSources"], swiftSettings: strict),
        // Repository protocols (what the app keeps between runs) and their in-memory implementation. Foundation only.
        .target(name: "Storage", dependencies: ["OnwardCore", "Trips"], swiftSettings: strict),
        // The default storage driver: SQLite through GRDB, one file in the data folder, versioned migrations.
        .target(name: "StorageSQLite", dependencies: ["Storage", "OnwardCore", "Trips", .product(name: "GRDB", package: "GRDB.swift"),
                                                      .product(name: "Tracing", package: "swift-distributed-tracing")],
                swiftSettings: strict),
        // The storage driver for several servers on one database: PostgreSQL through postgres-nio, SQL migrations.
        .target(name: "StoragePostgres", dependencies: ["Storage", "OnwardCore", "Trips",
                                                        .product(name: "PostgresNIO", package: "postgres-nio"),
                                                        .product(name: "NIOSSL", package: "swift-nio-ssl"),
                                                        .product(name: "Logging", package: "swift-log"),
                                                        .product(name: "Tracing", package: "swift-distributed-tracing")],
                swiftSettings: strict),
        // Codable wire types shared by the CLI's --json and (later) the HTTP API.
        .target(name: "API", dependencies: ["OnwardCore", "Commute", "SkiMap"], swiftSettings: strict),
        // Server-rendered HTML pages, their CSS and JavaScript, and the string tables (no HTTP framework inside).
        .target(name: "WebPages", dependencies: ["API", "OnwardCore"],
                // CSS and JavaScript are files, embedded so the server stays one binary.
                resources: [.embedInCode("Resources/app.css"), .embedInCode("Resources/dark-tokens.css"), .embedInCode("Resources/app.js"),
                            .embedInCode("Resources/sw.js"), .embedInCode("Resources/trip.js"), .embedInCode("Resources/line-map.js"),
                            // The installed app's icons: the brand mark (`Assets.icon`) drawn at 192 and 512 pixels.
                            .embedInCode("Resources/icons/icon-192.png"), .embedInCode("Resources/icons/icon-512.png"),
                            // Leaflet 1.7.1 for the trip map, unchanged, with its licence (BSD-2-Clause), served by Onward itself.
                            .embedInCode("Resources/leaflet/leaflet.js"), .embedInCode("Resources/leaflet/leaflet.css"),
                            .embedInCode("Resources/leaflet/LICENSE"), .embedInCode("Resources/leaflet/images/layers.png"),
                            .embedInCode("Resources/leaflet/images/layers-2x.png"), .embedInCode("Resources/leaflet/images/marker-icon.png"),
                            .embedInCode("Resources/leaflet/images/marker-icon-2x.png"), .embedInCode("Resources/leaflet/images/marker-shadow.png")],
                swiftSettings: strict),
        // The query layer: one path for the API, the pages, live updates and the CLI, over the
        // sources behind the protocol, answering in API types.
        .target(name: "Transit", dependencies: ["OnwardCore", "TransitSources", "API"], swiftSettings: strict),
        // The use cases: people and saved routes, group trips, commutes, push and Telegram delivery, the
        // live relay between servers. No HTTP: errors are `ServiceError` values that `Server` maps.
        .target(
            name: "Services",
            dependencies: ["OnwardCore", "API", "Commute", "DataSources", "Storage", "Transit", "TransitSources", "Trips", "WebPush", "SkiMap",
                           .product(name: "Crypto", package: "swift-crypto"),
                           // bcrypt alone (no HTTP), run on NIO's thread pool.
                           .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                           .product(name: "NIOPosix", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Tracing", package: "swift-distributed-tracing")],
            swiftSettings: strict
        ),
        // The HTTP edge: Hummingbird routes, middleware, the JSON API, pages and live updates.
        .target(
            name: "Server",
            dependencies: ["OnwardCore", "API", "WebPages", "Transit", "TransitSources", "Commute", "WebPush", "Storage", "SkiMap", "Trips", "Services",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Prometheus", package: "swift-prometheus"),
                           .product(name: "Tracing", package: "swift-distributed-tracing")],
            // The OpenAPI document is a file (written by Scripts/openapi.py), embedded so the server stays one binary.
            resources: [.embedInCode("Resources/openapi.json")],
            swiftSettings: strict
        ),
        // Composition root: turns configuration into a loaded network and a running server. Ships the default network.
        .target(
            name: "App",
            dependencies: ["OnwardCore", "Timetable", "GTFS", "GTFSRealtime", "DataSources", "API", "Transit", "Server", "Services", "Commute", "WebPush",
                           "Storage", "StorageSQLite", "StoragePostgres", "TransitSources", "GTFSSource", "NationalRail", "CTABusTracker", "SkiMap", "COnwardZlib",
                           .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Configuration", package: "swift-configuration"),
                           .product(name: "SystemPackage", package: "swift-system"),
                           .product(name: "Tracing", package: "swift-distributed-tracing"),
                           .product(name: "OTel", package: "swift-otel")],
            resources: [.copy("Resources/DefaultNetwork"), .copy("Resources/SkiArea")],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "onward",
            dependencies: ["App", "OnwardCore", "API", "Transit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // Test support: inline GTFS feeds, fixture paths, the fake HTTP fetcher and the storage contract suite every driver runs.
        .target(name: "OnwardTesting", dependencies: ["OnwardCore", "Timetable", "GTFS", "DataSources", "Storage", "StoragePostgres", "TransitSources", "Trips",
                                               .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        // Release-built benchmarks: `swift run -c release onward-bench`.
        .executableTarget(
            name: "onward-bench",
            dependencies: ["OnwardCore", "Timetable", "GTFS", "GTFSRealtime", "GTFSSource", "App", "API", "Transit", "WebPages",
                           "NationalRail", "DataSources", "TransitSources", "SkiMap", "Commute", "Services", "Storage", "StorageSQLite", "OnwardTesting", "WebPush", "Trips",
                           .product(name: "SwiftProtobuf", package: "swift-protobuf"), .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Load benchmarks of the server (release build): live-update fan-out to many WebSocket subscribers.
        .executableTarget(
            name: "onward-load",
            dependencies: ["App", "Transit", "OnwardCore", "Timetable", "GTFSRealtime", "GTFSSource",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Release-built figures of people's saved routes: sync latency across devices and SQLite write latency.
        .executableTarget(
            name: "onward-sync",
            dependencies: ["App", "Server", "Services", "OnwardCore", "Storage", "StorageSQLite",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "OnwardCoreTests", dependencies: ["OnwardCore"], swiftSettings: strict),
        .testTarget(name: "CommuteTests", dependencies: ["Commute", "OnwardCore"], swiftSettings: strict),
        .testTarget(name: "TripsTests", dependencies: ["Trips", "OnwardCore"], swiftSettings: strict),
        .testTarget(name: "SkiMapTests", dependencies: ["SkiMap", "OnwardCore", "OnwardTesting", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    swiftSettings: strict),
        .testTarget(name: "WebPushTests", dependencies: ["WebPush", .product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        .testTarget(name: "GTFSTests", dependencies: ["GTFS", "Timetable", "OnwardCore", "OnwardTesting", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    swiftSettings: strict),
        .testTarget(name: "TimetableTests", dependencies: ["GTFS", "Timetable", "OnwardCore", "OnwardTesting", "App"], swiftSettings: strict),
        .testTarget(name: "GTFSRealtimeTests", dependencies: ["GTFSRealtime", "GTFS", "Timetable", "OnwardCore", "API", "OnwardTesting", "DataSources", "App",
                                                        "GTFSSource", "Storage", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
                    swiftSettings: strict),
        .testTarget(name: "DataSourcesTests", dependencies: ["DataSources", "OnwardCore", "OnwardTesting"], swiftSettings: strict),
        .testTarget(
            name: "ServerTests",
            dependencies: ["Server", "App", "Transit", "API", "OnwardCore", "Timetable", "GTFS", "OnwardTesting", "GTFSRealtime", "GTFSSource", "DataSources",
                           "Storage", "StorageSQLite", "StoragePostgres", "TransitSources", "SkiMap", "WebPush", "Trips", "Services",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "InMemoryLogging", package: "swift-log"),
                           .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                           .product(name: "HummingbirdTesting", package: "hummingbird"),
                           .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                           .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                           .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "StorageSQLite", "StoragePostgres", "OnwardCore", "OnwardTesting", "Trips",
                                                      .product(name: "GRDB", package: "GRDB.swift"),
                                                      .product(name: "PostgresNIO", package: "postgres-nio")], swiftSettings: strict),
        .testTarget(name: "WebPagesTests", dependencies: ["WebPages", "API", "OnwardCore"], swiftSettings: strict),
        .testTarget(name: "NationalRailTests", dependencies: ["NationalRail", "OnwardCore", "DataSources", "TransitSources"],
                    swiftSettings: strict),
        .testTarget(name: "CTABusTrackerTests", dependencies: ["CTABusTracker", "OnwardCore", "DataSources", "TransitSources", "OnwardTesting"],
                    swiftSettings: strict),
        .testTarget(name: "OnwardCLITests", dependencies: ["OnwardTesting", "API", "App", "Transit", "TransitSources", "DataSources", "OnwardCore",
                                                     "Services", "Commute", "Storage", "GTFSRealtime",
                                                     .product(name: "SwiftProtobuf", package: "swift-protobuf")], swiftSettings: strict),
    ]
)
