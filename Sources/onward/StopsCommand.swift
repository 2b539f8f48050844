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

    @Option(parsing: .unconditional,
            help: ArgumentHelp("With --near: how far to look, in metres (default: \(Int(Queries.defaultRadiusMetres))).", valueName: "METRES"))
    var radius: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("At most N results (default: \(Queries.defaultStopsLimit)).", valueName: "N"))
    var limit: Int?

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if (search == nil) == (near == nil) { throw ValidationError("Give either --search TEXT or --near LAT,LON.") }
    }

    func run() async throws {
        try await runReporting {
            // Configured upstream sources (National Rail stations) are searched too, as the API does.
            let queries = try await CommandSources(feeds: feeds, live: nil, sources: sources).queries()
            // Read as the API reads `stops?q=` and `stops/nearby?lat=&lon=`: one set of defaults and limits.
            var options: [String: String?] = ["q": search, "limit": limit.map(String.init), "radius": radius.map { String($0) }]
            if let near {
                let parts = near.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, Double(parts[0]) != nil, Double(parts[1]) != nil else {
                    throw CLIError("--near '\(near)' is not LAT,LON in degrees, e.g. -6.2445,106.7981")
                }
                (options["lat"], options["lon"]) = (parts[0], parts[1])
            }
            let places: [StopDTO]
            do {
                let p = try RequestParameters(options: options)
                places = try await (search != nil ? queries.searchStops(p) : queries.nearbyStops(p)).stops
            } catch { throw error.cli }
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
