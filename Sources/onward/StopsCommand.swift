import API
import App
import ArgumentParser
import Foundation
import OnwardCore
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
        // The API's limits: one query layer, one set of limits.
        if (search == nil) == (near == nil) { throw ValidationError("Give either --search TEXT or --near LAT,LON.") }
        if radius < 1 || radius > Queries.maxRadiusMetres { throw ValidationError("--radius must be between 1 and \(Int(Queries.maxRadiusMetres)) metres.") }
        if !(1...Queries.maxLimit).contains(limit) { throw ValidationError("--limit must be between 1 and \(Queries.maxLimit).") }
    }

    func run() async throws {
        try await runReporting {
            // Configured upstream sources (National Rail stations) are searched too, as the API does.
            let queries = try CommandSources(feeds: feeds, live: nil, sources: sources).queries()
            let places: [StopDTO]
            do {
                if let search {
                    places = try await queries.searchStops(search, limit: limit).stops
                } else {
                    let parts = near!.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                    guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
                        throw CLIError("--near '\(near!)' is not LAT,LON in degrees, e.g. -6.2445,106.7981")
                    }
                    places = try await queries.nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit).stops
                }
            } catch let e as QueryError { throw e.cli }
            if json { try printJSON(StopsDTO(stops: places)); return }
            let t = Terminal.stdout
            if places.isEmpty { print("No stops found."); return }
            var table = TextTable(headers: near == nil ? ["ID", "Name", "Kind", "Code"] : ["ID", "Name", "Kind", "Distance"])
            for p in places {
                table.rows.append([t.dim(p.id), t.bold(p.name), p.kind,
                                   near == nil ? (p.code ?? "") : "\(Int(p.distanceMetres ?? 0)) m"])
            }
            print(table.render(t))
        }
    }
}
