import API
import App
import ArgumentParser
import Commute
import Foundation
import OnwardCore
import Transit
import TransitSources

struct CommuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commute",
        abstract: "Replay a trip through commuting mode: the alerts a traveller would get, when they would get them.",
        discussion: """
            Plans FROM → TO as `plan` does, takes option N, and replays a track through the same alert engine the
            server uses. A track is JSON lines: {"at": ISO, "lat": …, "lon": …, "accuracy": …} or
            {"at": ISO, "beacon": {"uuid": …, "major": …, "minor": …}} (with --beacons FILE, the operator's
            beacons.csv: uuid,major,minor,stop_id). --simulate runs the simulated live data and a traveller who
            follows the journey on time.
            A missed change is planned again from where the traveller is, and said.
            """
    )

    @Argument(help: "Where from: a stop or station ID or name.")
    var from: String

    @Argument(help: "Where to: a stop or station ID or name.")
    var to: String

    @OptionGroup var planning: PlanOptions

    @Option(help: ArgumentHelp("Which of the journeys found (default 1).", valueName: "N"))
    var option: Int = 1

    @Option(help: ArgumentHelp("The traveller's positions and beacon sightings, as JSON lines.", valueName: "FILE"))
    var track: String?

    @Option(help: ArgumentHelp("The operator's beacons.csv (uuid,major,minor,stop_id), for beacon sightings.", valueName: "FILE"))
    var beacons: String?

    @Flag(help: "Also say when the traveller is near a station, before the journey starts.")
    var nearStation = false

    @Flag(help: "One JSON line per alert: {\"at\", \"kind\", \"stopId\", \"stopName\", \"message\"}.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if (track == nil) == (!live.simulate) { throw ValidationError("Give either --track FILE or --simulate.") }
        if option < 1 { throw ValidationError("--option counts from 1.") }
    }

    func run() async throws {
        try await runReporting {
            let opened = try CommandSources(feeds: feeds, live: live, sources: sources, for: from)
            var query = try await planning.query(from: from, to: to, queries: opened.queries())
            let start = query.at ?? Instant.now()
            query.at = start
            await opened.readLive(asOf: start)
            let queries = opened.queries(now: start)
            let answer: SourceJourneys
            do { answer = try await queries.journeys(query).journeys } catch { throw error.cli }
            let (origin, destination, found) = (answer.from, answer.to, answer.journeys)
            guard option <= found.count else {
                throw CLIError(found.isEmpty ? "No journey from \(origin.name) to \(destination.name) then." : "--option \(option): only \(found.count) journeys were found.")
            }
            let journey = found[option - 1]
            let events = try live.simulate ? SimulatedTraveller.track(following: journey, from: start) : CommuteTrack.read(track!, beacons: try beacons.map(CommuteTrack.beaconMap))
            var settings = CommuteSettings()
            settings.nearStation = nearStation
            // The stations a small network lists, and the journey's own.
            let stations = queries.registry.sources.flatMap { $0.listedStations() } + [origin, destination]
            var session = CommuteSession(journey: journey, settings: settings, stations: stations)
            let zone = TimeZone(identifier: origin.timeZone) ?? .gmt
            if !json { print(CommuteReplay.heading(journey, zone: zone)) }
            try await CommuteReplay(queries: queries, destination: destination.id, planning: planning)
                .run(&session, events: events, from: min(start, events.first?.at ?? start), until: journey.arrival.adding(seconds: 3_600)) { alert in
                    if json { try printJSONLine(CommuteAlertDTO(alert, zone: zone)) } else { print(CommuteReplay.line(alert, zone: zone)) }
                }
        }
    }
}

/// Drives a session through a track in time order, waking it at each deadline in between,
/// and planning again from the station of a missed change (as the server does).
struct CommuteReplay {
    let queries: Queries
    let destination: String
    let planning: PlanOptions

    func run(_ session: inout CommuteSession, events: [CommuteEvent], from start: Instant, until end: Instant,
             report: (CommuteAlert) throws -> Void) async throws {
        var pending = events.sorted { $0.at < $1.at }[...]
        let last = max(end, pending.last?.at ?? end)
        // What is due at the start is said at once.
        for alert in session.handle(.tick(start)) { try report(alert) }
        while true {
            for alert in session.advance(to: last, events: &pending) { try report(alert) }
            guard let from = session.replanFrom, let now = session.time else { break }
            let again = try? await queries.journeys(planning.query(from: from.stopID, to: destination, at: now, queries: queries))
            guard let journey = again?.journeys.journeys.first else {
                // No other way found: the rest of the old journey is still said.
                for alert in session.advance(to: last, events: &pending) { try report(alert) }
                break
            }
            for alert in session.handle(.journey(journey, at: now)) { try report(alert) }
        }
    }

    /// "07:58:00  vehicleArriving         Your NS to Bundaran HI is arriving…"
    static func line(_ alert: CommuteAlert, zone: TimeZone) -> String {
        let kind = alert.kind.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0)
        return "\(LocalTime(alert.at, in: zone).hhmmss)  \(kind)  \(alert.message)"
    }

    /// The journey being replayed, in one line per ride.
    static func heading(_ j: Journey, zone: TimeZone) -> String {
        func clock(_ i: Instant) -> String { LocalTime(i, in: zone).hhmm }
        let rides = j.rides.map { "\(clock($0.expectedDeparture ?? $0.departure)) \($0.from.name) → \(clock($0.expectedArrival ?? $0.arrival)) \($0.to.name) (\($0.routeShortName))" }
        return (["Commuting: " + rides.joined(separator: "; ")] + [""]).joined(separator: "\n")
    }
}

/// One JSON document on one line (for streams of records).
func printJSONLine<T: Encodable>(_ value: T) throws {
    FileHandle.standardOutput.write(try JSONEncoder.api.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}
