import App
import DataSources
import Foundation
import GTFSSource
import HummingbirdTesting
import InMemoryLogging
import Logging
import OnwardCore
import OnwardTesting
import Timetable
import Transit

/// `onward serve` as the CLI builds it, on the Halifax timetable with one
/// realtime source polled over a fake network, in a data folder of its own.
enum HalifaxServer {
    static let address = "https://rt.example.org/halifax/TripUpdates.pb?key=SECRET-KEY"
    static let url = URL(string: address)!
    /// The name the source is known by everywhere: never its URL, which carries a key.
    static let source = "rt.example.org/TripUpdates.pb"
    /// The captured trip updates: their header says 2025-11-06 21:04:14 UTC (17:04:14 in Halifax).
    static let capture = Result { try Data(contentsOf: Fixtures.sharedData.appendingPathComponent("gtfs-rt/halifax/TripUpdates-2025-11-06T2104Z.pb")) }
    static let captured = Instant(epochSeconds: 1_762_463_054)

    /// The Halifax timetable as a snapshot, imported once per test run: each
    /// server then loads it in a moment instead of importing the 3.5 MB zip again,
    /// which on two cores slowed the rest of the suite's timing-sensitive tests.
    static let snapshot = Result<String, any Error> {
        // Named at import: the snapshot keeps the name, so its IDs are halifax:….
        let timetable = try Network.load(["halifax=" + Fixtures.gtfs("halifax-transit-2025-08").path]).timetable
        // One file, replaced whole (the write is atomic) on each run, rather than one more per run.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("onward-tests-halifax.onward")
        try timetable.writeSnapshot(to: url)
        return url.path
    }

    static func configuration(dataDir: String, simulate: Bool = false) throws -> ServeConfiguration {
        var config = ServeConfiguration()
        config.port = 0
        config.dataDir = dataDir
        if simulate {
            config.simulate = true
        } else {
            config.feeds = [try snapshot.get()]
            config.realtime = [address]
        }
        return config
    }

    /// A fetcher that serves `body` for the source.
    static func serving(_ body: Data) async -> FakeHTTPFetcher {
        let fetcher = FakeHTTPFetcher()
        await fetcher.stub(url, body: body)
        return fetcher
    }

    /// A fetcher whose every fetch of the source fails, as when upstream is down.
    static func failing() async -> FakeHTTPFetcher {
        let fetcher = FakeHTTPFetcher()
        await fetcher.stub(url, error: SourceError(.network, "connection refused"))
        return fetcher
    }

    /// A logger whose lines a test can read back.
    static func logger() -> (Logger, InMemoryLogHandler) {
        let handler = InMemoryLogHandler()
        return (Logger(label: "onward-test") { _ in handler }, handler)
    }

    /// Runs the server's services (pollers, simulation) until its state satisfies
    /// `done`, then `body`, then shuts them down. Waits on the store's updates, never on time.
    static func run(_ built: ServerApplication.Built, until done: @escaping @Sendable (NetworkState) -> Bool,
                    then body: @escaping @Sendable (any TestClientProtocol) async throws -> Void = { _ in }) async throws {
        try await built.application.test(.router) { client in
            let updates = built.store.subscribe()
            if !done(built.store.current) {
                for await _ in updates where done(built.store.current) { break }
            }
            try await body(client)
        }
    }
}
