import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Storage
import UnixSignals

extension ServerApplication {
    /// Why the server did not start, or stopped: in words for the person who ran it.
    public struct ServeFailure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `onward serve` whole: log lines in batches on standard error, build, listen until SIGTERM
    /// or SIGINT, then close the database. A caller (the CLI) names no server framework or driver.
    public static func serve(_ settings: ServeConfiguration) async throws {
        // Lines in batches: one write for many (see BatchedLogHandler); whatever waits is written on the way out.
        LoggingSystem.bootstrap { label in BatchedLogHandler(label: label) }
        defer { LogSink.standardError.flush() }
        var logger = Logger(label: "onward")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel) ?? .info
        // What was set and where; secrets (tokens, keys, the database URL) show as <REDACTED>.
        logger.info("configuration \(settings.summary)")
        // Before anything makes a span: the tracer is set once, for the whole process.
        let tracing: (any Service)?
        do { tracing = try TraceExport.start(settings, logger: logger) } catch {
            throw ServeFailure(description: "trace_endpoint: spans cannot be exported (\(error))")
        }
        var built: Built
        do {
            built = try await build(settings, logger: logger, fetcher: Fetchers.live(traced: tracing != nil))
        } catch let error as Network.LoadError {
            throw ServeFailure(description: error.description)
        } catch let error as StorageError {
            throw ServeFailure(description: error.description)
        }
        if let tracing { built.application.addServices(tracing) }
        do {
            try await ServiceGroup(configuration: stopping(built.application, logger: logger)).run()
            // After a clean shutdown (SIGTERM): the pool's connections close.
            await built.storage.close()
        } catch where isAddressInUse(error) {
            throw ServeFailure(description: "port \(settings.port) on \(settings.host) is already in use by another program: "
                               + "stop it, or choose another port with --port")
        }
    }

    /// How long requests under way may take to finish after SIGTERM or SIGINT before they are cancelled:
    /// a client that keeps a connection open must not keep the server from stopping (or a new version from starting).
    static let stopDeadline: Duration = .seconds(10)

    /// The server as one service, stopped gracefully by SIGTERM or SIGINT within `stopDeadline`. No limit is put on
    /// the cancellation after it: ServiceLifecycle ends the process with a crash when one is passed.
    static func stopping(_ application: some Service, logger: Logger) -> ServiceGroupConfiguration {
        var configuration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = stopDeadline
        return configuration
    }
}
