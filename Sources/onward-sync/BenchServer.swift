import App
import Foundation
import Hummingbird
import Logging

/// `onward serve` as `ServerApplication` builds it, in this process on `port`, with the rate limit out of the
/// way (every client here is one address); returned once it answers, with its running task and base URL.
func startServer(port: Int, dataDir: String, logger: Logger, logLevel: String) async throws
    -> (built: ServerApplication.Built, running: Task<Void, any Error>, base: String) {
    var config = ServeConfiguration()
    config.port = port
    config.dataDir = dataDir
    config.rateLimit = 100_000
    config.rateBurst = 100_000
    config.logLevel = logLevel
    let built = try await ServerApplication.build(config, logger: logger)
    let running = Task { try await built.application.runService(gracefulShutdownSignals: []) }
    let base = "http://127.0.0.1:\(port)"
    for _ in 0..<300 {
        if (try? await send("GET", base + "/health/live", nil)) != nil { break }
        try await Task.sleep(for: .milliseconds(100))
    }
    return (built, running, base)
}
