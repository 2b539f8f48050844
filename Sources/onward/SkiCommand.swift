import API
import App
import ArgumentParser
import Foundation

struct SkiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ski",
        abstract: "The ski area: routes that respect a skier's level.",
        subcommands: [SkiRouteCommand.self]
    )
}

struct SkiRouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "The fastest way from one point of the ski area to another, never down a run harder than the level.",
        discussion: """
            Runs are taken in their direction and only up to the level (novice < easy < intermediate < advanced \
            < expert; freeride only with --freeride); lifts go up, and down only where they are two-way; a \
            run's end joins a lift or another run nearby.

            Without --area, the bundled Vallnord Pal–Arinsal (OpenStreetMap, 2013, with SRTM heights).
            """
    )

    @Option(help: ArgumentHelp("Where you are: LAT,LON.", valueName: "LAT,LON"))
    var from: String

    @Option(help: ArgumentHelp("Where to: LAT,LON (a lift station, a hut, the car park).", valueName: "LAT,LON"))
    var to: String

    @Option(help: ArgumentHelp("novice, easy, intermediate, advanced or expert.", valueName: "LEVEL"))
    var level: String

    @Flag(help: "Freeride runs too.")
    var freeride = false

    @Flag(help: "Print the route as JSON.")
    var json = false

    @Option(help: ArgumentHelp("A ski area's OpenStreetMap extract (OSM XML) instead of the bundled one.", valueName: "FILE"))
    var area: String?

    @Option(help: ArgumentHelp("Its SRTM tile (.hgt, or a zip holding one), for the heights.", valueName: "FILE"))
    var elevation: String?

    func run() async throws {
        try await runReporting {
            let dto: SkiRouteDTO
            do throws(SkiRouteFinding.Failure) {
                dto = try SkiRouteFinding.route(from: from, to: to, level: level, freeride: freeride, area: area, elevation: elevation)
            } catch {
                throw CLIError(error.description)
            }
            if json { return try printJSONLine(dto) }
            print(Self.text(dto, terminal: .stdout))
        }
    }

    static func text(_ r: SkiRouteDTO, terminal: Terminal) -> String {
        func distance(_ m: Int) -> String { m >= 1000 ? String(format: "%.1f km", Double(m) / 1000) : "\(m) m" }
        var lines = [terminal.bold("\(r.level.capitalized) route: \(distance(r.lengthMetres)), about \(max(1, r.durationSeconds / 60)) min")]
        for leg in r.legs {
            // A walk's few metres up or down are not worth a word.
            var drop = ""
            if let d = leg.dropMetres, !(leg.kind == "walk" && abs(d) < 5) { drop = d >= 0 ? ", \(d) m down" : ", \(-d) m up" }
            switch leg.kind {
            case "run":
                lines.append("  run   \(leg.name ?? "(unnamed)") — \(leg.difficulty ?? "?"), \(leg.colour ?? "")  \(distance(leg.lengthMetres))\(drop)")
            case "lift":
                lines.append("  lift  \(leg.name ?? "(unnamed)") — \((leg.liftKind ?? "lift").replacingOccurrences(of: "_", with: " "))  \(distance(leg.lengthMetres))\(drop)")
            default:
                lines.append(terminal.dim("  walk  \(distance(leg.lengthMetres))\(drop)"))
            }
        }
        return lines.joined(separator: "\n")
    }
}
