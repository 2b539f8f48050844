import API
import Foundation
import OnwardCore
import Services
import Storage
import Synchronization
import Transit

/// `onward watch`: a journey watched as the server watches it (`WatchService`, its storage in memory) on the
/// recording's clock, checked after each recorded capture is applied, so the CLI says what the server would send.
public enum WatchReplay {
    /// Why a replay could not start, naming the option at fault (`time`, `lead`, `threshold`, `from`, `to`).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public var parameter: String?
    }

    /// Watches `from` → `to` leaving at `departure` with the given lead and threshold, then applies each of `live`
    /// in order and checks; `heading` hears the watch before the first notice, `report` each notice as it is given.
    public static func run(sources: SourceRegistry, from: String, to: String, departure: Instant, leadMinutes: Int, thresholdMinutes: Int,
                           live: [(at: Instant, apply: @Sendable () async -> Void)], heading: (WatchDTO) throws -> Void,
                           report: (WatchNoticeDTO) throws -> Void) async throws {
        let clock = Mutex(departure.adding(seconds: -Int64(leadMinutes) * 60))
        let service = WatchService(repository: InMemoryWatchRepository(), sources: sources, notifier: nil, now: { clock.withLock { $0 } })
        let watch: WatchDTO
        do {
            watch = try await service.create(owner: "cli", WatchRequestDTO(from: from, to: to, departure: departure.description,
                                                                          leadMinutes: leadMinutes, thresholdMinutes: thresholdMinutes))
        } catch let e as ServiceError {
            throw Failure(description: e.message, parameter: e.parameter)
        }
        try heading(watch)
        for step in live {
            await step.apply()
            clock.withLock { $0 = step.at }
            for (_, notice) in await service.check() { try report(notice) }
        }
    }
}
