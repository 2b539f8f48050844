import API
import App
import ArgumentParser
import Foundation
import OnwardCore
import Transit

struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Station alerts and service alerts from GTFS-Realtime.",
        discussion: """
            Without --stop, --route or --trip, lists every alert active at the time. --stop shows the alerts of a stop \
            or station (a station gathers its platforms); --route and --trip show the alerts of one service. \
            High-priority alerts come first.

            Alerts come from --realtime feeds (files or URLs), or from --simulate on the bundled network.
            """
    )

    @Option(help: ArgumentHelp("Alerts for this stop or station: an ID or a name.", valueName: "STOP"))
    var stop: String?

    @Option(help: ArgumentHelp("Alerts for this route: an ID or a short name.", valueName: "ROUTE"))
    var route: String?

    @Option(help: ArgumentHelp("Alerts for this trip.", valueName: "TRIP"))
    var trip: String?


    @Option(help: ArgumentHelp("The time to show alerts for: ISO 8601 (2025-11-06T17:04:00-04:00, or without offset in the network's time zone) or 'now'.",
                               valueName: "ISO_OR_NOW"))
    var at: String = "now"

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var feeds: FeedOptions

    @OptionGroup var live: RealtimeOptions

    @OptionGroup var sources: SourceOptions

    func validate() throws {
        if [stop, route, trip].compactMap({ $0 }).count > 1 { throw ValidationError("Give one of --stop, --route or --trip.") }
    }

    func run() async throws {
        try await runReporting {
            let opened = try await CommandSources(feeds: feeds, live: live, sources: sources, for: stop ?? route ?? trip)
            let lookup = opened.queries()
            let network = opened.network != nil && !opened.registry.owns(stop ?? route ?? trip ?? "")
            if network && !live.wanted {
                throw CLIError("no alert feed given: pass --realtime URL_OR_FILE (a GTFS-Realtime alerts feed)"
                               + (feeds.feed.isEmpty ? ", or --simulate for the bundled network's simulated alerts" : ""))
            }
            // A stop may be given by name, a route by its short or long name.
            let stopPlace: StopPlace?
            do { stopPlace = try await stop.asyncMap { try await lookup.matchStop($0) } } catch { throw error.cli }
            let routeID: String?
            do { routeID = try route.map { text throws(QueryError) in try lookup.matchRoute(text, parameter: "route") } } catch { throw error.cli }
            // Times are read in the zone of what is asked about (a stop's, a route's agency's, the network's).
            let zone: TimeZone
            do {
                let scope = try await lookup.alerts(stopID: stopPlace?.id, routeID: routeID, tripID: trip, languages: live.languages)
                zone = TimeZone.named(scope.timeZone ?? "UTC")
            } catch let e as QueryError { throw e.cli }
            let instant = try parseAt(at, zone: zone)
            await opened.readLive(asOf: instant)
            if network, opened.network?.hasLiveData == false {
                throw CLIError("no alert feed could be read (see the messages above)")
            }
            let answer: AlertsDTO
            do {
                answer = try await opened.queries(now: instant).alerts(stopID: stopPlace?.id, routeID: routeID, tripID: trip, languages: live.languages)
            } catch let e as QueryError { throw e.cli }
            if json { try printJSON(answer); return }
            let subject = answer.stop?.name ?? route.map { "route \($0)" } ?? trip.map { "trip \($0)" }
            print(AlertsView(answer: answer, text: AlertText(names: lookup.names(of: answer.alerts), at: instant, zone: zone),
                             simulated: live.simulate, subject: subject).render(.stdout))
        }
    }
}

/// `now`, or the query layer's reading of an ISO 8601 date and time (with an offset, or without one in `zone`).
func parseAt(_ text: String, zone: TimeZone) throws -> Instant {
    if text.lowercased() == "now" { return .now() }
    do { return try TimeText.instant(text, localZone: zone, parameter: "at") } catch { throw error.cli }
}

/// The terminal rendering of a list of alerts.
struct AlertsView {
    var answer: AlertsDTO
    var text: AlertText
    var simulated: Bool
    /// "Stasiun Blok M", "route 7B", or nil for all alerts.
    var subject: String?

    func render(_ t: Terminal) -> String {
        let when = LocalTime(text.at, in: text.zone)
        var out = [t.bold("Alerts" + (subject.map { " · \($0)" } ?? "")) + t.dim("  at \(when.date.isoString) \(when.hhmm) (\(text.zone.identifier))")]
        if simulated { out.append(t.yellow("Simulated data, for demonstration.")) }
        out.append("")
        let alerts = answer.alerts
        if alerts.isEmpty {
            out.append(subject == nil ? "No alerts are active at this time." : "No alerts for \(subject!) are active at this time.")
        }
        let high = alerts.filter(\.highPriority), other = alerts.filter { !$0.highPriority }
        if !high.isEmpty && !other.isEmpty { out.append(t.bold("High priority")) }
        for a in high { out += text.block(a, t) }
        if !high.isEmpty && !other.isEmpty { out.append(t.bold("Other alerts")) }
        for a in other { out += text.block(a, t) }
        var notes: [String] = []
        let inactive = answer.inactiveCount
        if inactive > 0 {
            notes.append("\(inactive) more alert\(inactive == 1 ? "" : "s")\(subject == nil ? "" : " for \(subject!)") in the feed "
                         + "\(inactive == 1 ? "is" : "are") not active at this time; try --at with another time.")
        }
        let total = answer.totalInFeeds
        if subject != nil && alerts.isEmpty && inactive == 0 && total > 0 {
            notes.append("The feed holds \(total) alert\(total == 1 ? "" : "s") in all, none about \(subject!).")
        }
        notes += answer.notes ?? []
        out += notes.map { t.dim($0) }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n")
    }
}
