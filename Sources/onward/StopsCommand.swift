import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Timetable
import Transit

struct StopsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stops",
        abstract: "Find stops and stations by name or near a place."
    )

    @Option(help: ArgumentHelp("Name, or the start of any word of it; case and accents do not matter.", valueName: "TEXT"))
    var search: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Latitude and longitude in degrees, e.g. -6.2445,106.7981.", valueName: "LAT,LON"))
    var near: String?

    @Option(help: ArgumentHelp("With --near: how far to look, in metres (default 1000).", valueName: "METRES"))
    var radius: Double = 1000

    @Option(help: "At most this many results.")
    var limit: Int = 20

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if (search == nil) == (near == nil) { throw ValidationError("Give either --search TEXT or --near LAT,LON.") }
        if radius <= 0 || radius > 50_000 { throw ValidationError("--radius must be between 1 and 50000 metres.") }
        if !(1...500).contains(limit) { throw ValidationError("--limit must be between 1 and 500.") }
    }

    func run() async throws {
        try await runReporting {
            let tt = try feeds.load().timetable
            var places: [StopPlace]
            // Configured upstream sources (National Rail stations) are searched too, as the API does.
            let queries = SourceQueries(try sources.registry(), now: .now())
            if let search {
                places = tt.searchStops(search, limit: limit)
                if places.count < limit { places += await queries.searchStops(search, limit: limit - places.count) }
            } else {
                let parts = near!.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
                    throw CLIError("--near '\(near!)' is not LAT,LON in degrees, e.g. -6.2445,106.7981")
                }
                places = tt.nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit)
                places = Array((places + (await queries.nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit)))
                    .sorted { ($0.distance ?? 0) < ($1.distance ?? 0) }.prefix(limit))
            }
            if json { try printJSON(StopsDTO(places)); return }
            let t = Terminal.stdout
            if places.isEmpty { print("No stops found."); return }
            var table = TextTable(headers: near == nil ? ["ID", "Name", "Kind", "Code"] : ["ID", "Name", "Kind", "Distance"])
            for p in places {
                table.rows.append([t.dim(p.id), t.bold(p.name), p.kind.name,
                                   near == nil ? (p.code ?? "") : "\(Int(p.distance ?? 0)) m"])
            }
            print(table.render(t))
        }
    }
}
