import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct CommuteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commute",
        abstract: "Replay a trip through commuting mode: the alerts a traveller would get, when they would get them.",
        discussion: """
            Plans FROM → TO as `plan` does, takes option N, and replays a track through the same alert engine the \
            server uses. A missed change is planned again from where the traveller is, and said.

            A track is JSON lines: {"at": ISO, "lat": …, "lon": …, "accuracy": …} or \
            {"at": ISO, "beacon": {"uuid": …, "major": …, "minor": …}} (with --beacons FILE, the operator's \
            beacons.csv: uuid,major,minor,stop_id). --simulate runs the simulated live data and a traveller who \
            follows the journey on time. Recorded GTFS-Realtime files (--realtime FILE, repeatable: a day's \
            captures of a feed) are applied in the order of their headers' timestamps, each as the replay reaches it.
            """
    )

    @Argument(help: "Where from: a stop or station ID or name.")
    var from: String

    @Argument(help: "Where to: a stop or station ID or name.")
    var to: String

    @OptionGroup var planning: PlanOptions

    @Option(help: ArgumentHelp("Which of the journeys found.", valueName: "N"))
    var option: Int = 1

    @Option(help: ArgumentHelp("The traveller's positions and beacon sightings, as JSON lines.", valueName: "FILE"))
    var track: String?

    @Option(help: ArgumentHelp("The operator's beacons.csv (uuid,major,minor,stop_id), for beacon sightings.", valueName: "FILE"))
    var beacons: String?

    @Flag(help: "Also say when the traveller is near a station, before the journey starts.")
    var nearStation = false

    @Flag(help: "One JSON line per alert: {\"at\", \"kind\", \"stopId\", \"stopName\", \"message\", \"basis\"}.")
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
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: from)
            var query = try await planning.query(from: from, to: to, queries: opened.queries())
            let start = query.at ?? Instant.now()
            query.at = start
            // Recorded feeds are replayed in time order (by their headers' timestamps); a URL is read once.
            let replayed = try await opened.replayLive(from: start)
            if replayed == nil { await opened.readLive(asOf: start) }
            do {
                // The server's own driver (`CommuteDriver`, through `App`): the same journey, stations, defaults and re-planning.
                try await CommuteReplay.run(sources: opened.registry, query: query, option: option, nearStation: nearStation,
                                            track: live.simulate ? .simulated : .file(path: track!, beacons: beacons), now: start,
                                            live: replayed ?? [],
                                            heading: { if !json { print(Self.heading($0.journey, zone: $0.zone)) } },
                                            report: { alert in if json { try printJSONLine(alert) } else { print(Self.line(alert)) } })
            } catch let e as CommuteReplay.Failure {
                throw CLIError(e.parameter == "option" ? "--" + e.description : e.description)
            } catch {
                throw error.cli
            }
        }
    }

    /// "07:58:00  vehicleArriving         Your NS to Bundaran HI is arriving…  (from the timetable)"
    static func line(_ alert: CommuteAlertDTO) -> String {
        let kind = alert.kind.padding(toLength: 22, withPad: " ", startingAt: 0)
        return "\(clock(alert.at))  \(kind)  \(alert.message)" + (alert.basis.flatMap(basisWords).map { "  (\($0))" } ?? "")
    }

    /// "07:58:00" of an ISO 8601 local time with its offset (its characters 11 to 19).
    static func clock(_ iso: String) -> String { iso.count >= 19 ? String(iso.dropFirst(11).prefix(8)) : iso }

    /// What an alert's moment was judged from, in words.
    static func basisWords(_ basis: String) -> String? {
        switch basis {
        case "liveTimes": "from live times"
        case "timetable": "from the timetable"
        case "position": "from your position"
        case "beacon": "from a beacon"
        default: nil
        }
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
