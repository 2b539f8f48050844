import API
import Commute
import Foundation
import OnwardCore
import Services
import Transit

/// `onward commute`: a journey planned as the API plans it, and a track replayed through the one commute
/// driver the server runs (`CommuteDriver`), so the CLI says what the server would say, alert by alert.
public enum CommuteReplay {
    /// Where the traveller's positions come from.
    public enum Track: Sendable {
        /// A traveller who follows the journey on time, as the server's simulation.
        case simulated
        /// A recorded track (JSON lines) and, for its beacon sightings, the operator's beacons.csv.
        case file(path: String, beacons: String?)
        /// A track already read (`read`): `onward watch --track` reads it to know when the traveller sets off.
        case recorded([CommuteEvent])

        /// When a track read first says where the traveller is.
        var firstSighting: Instant? { if case .recorded(let events) = self { events.map(\.at).min() } else { nil } }
    }

    /// What was replayed: the journey (for a heading) and its origin's time zone.
    public struct Replayed: Sendable {
        public var journey: Journey
        public var zone: TimeZone
    }

    /// Why a replay could not run: a track or beacons file that cannot be read or has a bad line, or no
    /// journey for the option asked; `parameter` names what was wrong (`option`, `track`).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public var parameter: String?
    }

    /// Begins the commute on `query`'s `option`-th journey as of `now`, reads the track, and replays it;
    /// `heading` hears the journey before the first alert, `report` each alert as it is given.
    public static func run(sources: SourceRegistry, query: Queries.JourneyQuery, option: Int, nearStation: Bool, track: Track, now: Instant,
                           live: [(at: Instant, apply: @Sendable () async -> Void)] = [],
                           heading: (Replayed) throws -> Void, report: (CommuteAlertDTO) throws -> Void) async throws {
        do {
            try await replay(sources: sources, query: query, option: option, nearStation: nearStation, track: track, now: now,
                             live: live.map { CommuteDriver.LiveStep(at: $0.at, apply: $0.apply) }, heading: heading, report: report)
        } catch let e as ServiceError {
            throw Failure(description: e.message, parameter: e.parameter)
        }
    }

    private static func replay(sources: SourceRegistry, query: Queries.JourneyQuery, option: Int, nearStation: Bool, track: Track, now: Instant,
                               live: [CommuteDriver.LiveStep], heading: (Replayed) throws -> Void, report: (CommuteAlertDTO) throws -> Void) async throws {
        let driver = CommuteDriver(sources: sources)
        var settings = CommuteSettings()
        settings.nearStation = nearStation
        var begun = try await driver.begin(query, option: option, settings: settings, now: now)
        let events = try self.events(track, journey: begun.journey)
        let zone = TimeZone.named(begun.from.timeZone)
        try heading(Replayed(journey: begun.journey, zone: zone))
        let start = min(now, events.first?.at ?? now)
        try await driver.replay(&begun.session, journey: begun.journey, plan: begun.plan, events: events, live: live, from: start, until: begun.journey.arrival.adding(seconds: 3_600)) {
            try report(CommuteAlertDTO($0, zone: zone))
        }
    }

    /// The track's positions and beacon sightings, in the file's order (or the simulated traveller's on `journey`).
    static func events(_ track: Track, journey: Journey) throws -> [CommuteEvent] {
        switch track {
        case .simulated: return CommuteDriver.simulatedTrack(journey)
        case .recorded(let events): return events
        case .file(let path, let beacons): return try fileEvents(path: path, beacons: beacons)
        }
    }

    /// A track file read (`.recorded`); other tracks as they are.
    public static func read(_ track: Track) throws -> Track {
        guard case .file(let path, let beacons) = track else { return track }
        return .recorded(try fileEvents(path: path, beacons: beacons))
    }

    static func fileEvents(path: String, beacons: String?) throws -> [CommuteEvent] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure(description: "cannot read the track '\(path)'") }
        return try CommuteDriver.track(jsonLines: text, name: path, beacons: try beacons.map(beaconMap))
    }

    static func beaconMap(_ path: String) throws -> BeaconMap {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw Failure(description: "cannot read the beacons file '\(path)'") }
        do { return try BeaconMap(csv: text) } catch { throw Failure(description: "\(path): \(error)") }
    }
}
