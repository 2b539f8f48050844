import App
import Foundation
import GTFSRealtime
import Logging
import OnwardCore
import Synchronization
import Transit

/// A settable "now" for the server: each round moves it to the moment of the
/// simulation just applied, so boards move on as they would in real life, but
/// the same run gives the same answers.
final class SimulatedNow: Sendable {
    private let value: Mutex<Instant>
    init(_ start: Instant) { value = Mutex(start) }
    var current: Instant { value.withLock { $0 } }
    func set(_ instant: Instant) { value.withLock { $0 = instant } }
}

/// The server exactly as `onward serve` builds it (ServerApplication.build),
/// without the simulation timer: this tool applies the updates itself.
enum LoadServer {
    /// Monday 2026-11-23 08:00 in Jakarta (UTC+7): a weekday morning peak on the bundled network.
    static let start = Instant(epochSeconds: Int64(ServiceDate(iso: "2026-11-23")!.dayNumber) * 86_400 + 1 * 3600)

    static func build(port: Int, clock: SimulatedNow, logger: Logger) async throws -> ServerApplication.Built {
        var config = ServeConfiguration()
        config.host = "127.0.0.1"
        config.port = port
        config.simulate = false
        config.dataDir = NSTemporaryDirectory() + "onward-load-data"
        config.logLevel = "warning"
        return try await ServerApplication.build(config, logger: logger, now: { clock.current })
    }
}
