import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

/// `onward sources`: what is configured, and how each upstream is doing.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "The configured sources (the GTFS network, National Rail, the CTA bus tracker) and their health.",
        discussion: "Upstream sources are configured as for `onward serve`: ONWARD_NATIONAL_RAIL_TOKEN, ONWARD_CTA_KEY, … or onward.json."
    )

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var sources: SourceOptions

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: nil, sources: sources, identifying: true)
            let registry = opened.registry
            let all = SourcesDTO(sources: opened.queries().sources())
            if json { try printJSON(all); return }
            let t = Terminal.stdout
            for s in all.sources {
                print(t.bold(s.name) + "  " + s.displayName + t.dim("  (" + s.capabilities.joined(separator: ", ") + ")"))
                for u in s.upstreams {
                    print("  \(u.name): \(u.state)" + (u.detail.map { " — \($0)" } ?? ""))
                    if let v = u.version {
                        print(t.dim("    version \(v.hash.prefix(12)), fetched \(v.fetchedAt); service \(v.firstDate ?? "?") to \(v.lastDate ?? "?")"))
                    }
                    if let warning = u.warning { print(t.yellow("    \(warning)")) }
                }
            }
            let missing = ProtocolSources.known.filter { k in registry.source(named: k.name) == nil }
            for m in missing { print(t.dim("\(m.name): not configured (set \(m.setting))")) }
        }
    }
}

/// `onward routes SOURCE` lists a source's routes; `onward routes ROUTE` its directions;
/// `onward routes ROUTE --direction DIR` the stops one direction serves, in order.
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Browse a source: routes, then a route's directions, then a direction's stops (for sources organised that way)."
    )

    @Argument(help: ArgumentHelp("A source name (cta) or a route ID (cta:22).", valueName: "SOURCE_OR_ROUTE"))
    var subject: String

    @Option(help: ArgumentHelp("With a route: list the stops of this direction.", valueName: "DIRECTION"))
    var direction: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var sources: SourceOptions

    func run() async throws {
        try await runReporting {
            let registry = try await CommandSources(feeds: feeds, live: nil, sources: sources, for: subject).registry
            let queries = Queries(registry, now: .now())
            let t = Terminal.stdout
            do {
                if registry.source(named: subject) != nil {
                    let routes = try await queries.routes(source: subject)
                    if json { try printJSON(routes); return }
                    var table = TextTable(headers: ["ID", "Route", "Name"])
                    for r in routes.routes { table.rows.append([t.dim(r.id), t.bold(r.shortName), r.longName]) }
                    print(table.render(t))
                    return
                }
                if !registry.owns(subject) { try sources.explainUnconfigured(subject) }
                let detail = try await queries.route(subject, direction: direction)
                if json { try printJSON(detail); return }
                if let stops = detail.stops {
                    var table = TextTable(headers: ["ID", "Stop"])
                    for s in stops { table.rows.append([t.dim(s.id), s.name]) }
                    print(table.render(t))
                } else {
                    for d in detail.directions ?? [] { print(t.dim(d.id) + "  " + d.name) }
                }
            } catch let e as QueryError {
                throw CLIError(e.message)
            }
        }
    }
}
