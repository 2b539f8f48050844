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

    /// What the traveller then did (`--track`): their recorded positions, replayed through commuting mode from the first
    /// of them, on the journey leaving at the watched departure as planned then; each alert and its heading.
    public struct Trip {
        public var track: CommuteReplay.Track
        public var heading: (CommuteReplay.Replayed) throws -> Void
        public var report: (CommuteAlertDTO) throws -> Void

        public init(track: CommuteReplay.Track, heading: @escaping (CommuteReplay.Replayed) throws -> Void,
                    report: @escaping (CommuteAlertDTO) throws -> Void) {
            self.track = track; self.heading = heading; self.report = report
        }
    }

    /// Watches `from` → `to` leaving at `departure` with the given lead and threshold, then applies each of `live`
    /// in order and checks; `heading` hears the watch before the first notice, `report` each notice as it is given.
    /// With `trip`, the watch stops where the track starts, and the rest of the recording is replayed with it.
    public static func run(sources: SourceRegistry, from: String, to: String, departure: Instant, leadMinutes: Int, thresholdMinutes: Int,
                           live: [(at: Instant, apply: @Sendable () async -> Void)], trip: Trip? = nil, heading: (WatchDTO) throws -> Void,
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
        // The track is read once: its first sighting is when the traveller sets off, and the commute replays it.
        let track: CommuteReplay.Track?
        do { track = try trip.map { try CommuteReplay.read($0.track) } } catch let e as CommuteReplay.Failure {
            throw Failure(description: e.description, parameter: "track")
        }
        let setsOff = track.map { $0.firstSighting ?? departure }
        for step in live where setsOff.map({ step.at <= $0 }) ?? true {
            await step.apply()
            clock.withLock { $0 = step.at }
            for (_, notice) in await service.check() { try report(notice) }
        }
        guard let trip, let track, let setsOff else { return }
        let rest = live.filter { $0.at > setsOff }
        do {
            try await CommuteReplay.run(sources: sources, query: Queries.JourneyQuery(from: from, to: to, at: departure), option: 1, nearStation: false,
                                        track: track, now: setsOff, live: rest, heading: trip.heading, report: trip.report)
        } catch let e as CommuteReplay.Failure {
            throw Failure(description: e.description, parameter: e.parameter == "option" ? "time" : e.parameter)
        }
    }
}
