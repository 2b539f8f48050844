import API
import App
import ArgumentParser
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable
import Transit

struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Station alerts and service alerts from GTFS-Realtime.",
        discussion: """
            Without --stop, --route or --trip, lists every alert active at the time.
            --stop shows the alerts of a stop or station (a station gathers its platforms);
            --route and --trip show the alerts of one service. High-priority alerts come first.
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
            let registry = try sources.registry()
            if let id = stop ?? route, registry.owns(id) {
                let queries = SourceQueries(registry, now: .now())
                let answer: AlertsDTO
                do { answer = try await queries.alerts(stopID: stop, routeID: stop == nil ? route : nil, languages: live.languages) } catch let e as QueryError {
                    throw CLIError(e.message)
                }
                if json { try printJSON(answer); return }
                let t = Terminal.stdout
                if answer.alerts.isEmpty { print("No alerts now.") }
                for a in answer.alerts {
                    print((a.highPriority ? t.red("! ") : "- ") + t.bold(a.header ?? a.id))
                    if let d = a.description, d != a.header { print("  " + d) }
                }
                return
            }
            let tt = try feeds.load().timetable
            let stopIndex = try stop.map { try resolve($0, in: tt) }
            let routeInfo = try route.map { try resolveRoute($0, in: tt) }
            let zone = displayZone(tt, stop: stopIndex, route: routeInfo)
            let instant = try parseAt(at, zone: zone)
            guard live.wanted else {
                throw CLIError("no alert feed given: pass --realtime URL_OR_FILE (a GTFS-Realtime alerts feed)"
                               + (feeds.feed.isEmpty ? ", or --simulate for the bundled network's simulated alerts" : ""))
            }
            guard let data = await live.load(tt, now: instant), data.isLive else {
                throw CLIError("no alert feed could be read (see the messages above)")
            }
            // Each feed's alerts take the prefix of the static feed it is bound to.
            let book = data.alertBook(tt)
            // A trip given unprefixed is matched by its canonical ID, as the alerts name it.
            let trip = try trip.map { id throws -> String in
                switch tt.lookupTrip(id: id) {
                case .found(let t): return tt.tripIdentifier(t)
                case .ambiguous(let ids): throw CLIError("'\(id)' is a trip of several feeds; name one: \(ids.joined(separator: ", "))")
                case .notFound: return id
                }
            }
            let languages = live.languages

            func query(_ when: Instant?) -> [Alert] {
                if let stopIndex { return book.stationAlerts(for: stopIndex, at: when) }
                if let routeInfo { return book.serviceAlerts(route: routeInfo.id, trip: nil, at: when) }
                if let trip { return book.serviceAlerts(route: nil, trip: trip, at: when) }
                return book.all(at: when)
            }
            let active = query(instant)
            let inactive = query(nil).count - active.count
            if json {
                try printJSON(AlertsDTO(at: LocalTime(instant, in: zone).iso8601, stop: stopIndex.map { tt.place($0) },
                                        routeId: routeInfo?.id,
                                        alerts: active.map { AlertDTO($0, languages: languages, timeZone: zone) },
                                        inactiveCount: inactive, totalInFeeds: book.alerts.count))
                return
            }
            let view = AlertsView(timetable: tt, book: book, alerts: active, inactive: inactive, at: instant, zone: zone,
                                  languages: languages, simulated: data.overlay.isSimulated,
                                  subject: stopIndex.map { tt.place($0).name } ?? routeInfo.map { "route \($0.displayName)" }
                                      ?? trip.map { "trip \($0)" })
            print(view.render(.stdout))
        }
    }

    /// Times read in the stop's zone, else the route's agency's, else the first agency's.
    private func displayZone(_ tt: Timetable, stop: StopIndex?, route: RouteInfo?) -> TimeZone {
        if let stop { return TimeZone(identifier: tt.timeZoneIdentifier(of: stop)) ?? .gmt }
        let agencies = tt.agencies
        let id = agencies.first { $0.id == route?.agencyID }?.timeZone ?? agencies.first?.timeZone
        return id.flatMap(TimeZone.init(identifier:)) ?? .gmt
    }

}

/// `now`, an ISO 8601 instant with an offset or Z, or a local date and time in `zone`.
func parseAt(_ text: String, zone: TimeZone) throws -> Instant {
    if text.lowercased() == "now" { return .now() }
    let formatter = ISO8601DateFormatter()
    if let d = formatter.date(from: text) { return Instant(d) }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let d = formatter.date(from: text) { return Instant(d) }
    let parts = text.split(separator: "T", maxSplits: 1)
    if parts.count == 2, let date = ServiceDate(iso: parts[0]) {
        let hms = parts[1].split(separator: ":").map { Int($0) }
        if (2...3).contains(hms.count), hms.allSatisfy({ $0 != nil }), (0...23).contains(hms[0]!), (0...59).contains(hms[1]!),
           hms.count == 2 || (0...59).contains(hms[2]!) {
            return LocalTime.instant(date: date, secondsOfDay: hms[0]! * 3600 + hms[1]! * 60 + (hms.count == 3 ? hms[2]! : 0), in: zone)
        }
    }
    throw CLIError("--at '\(text)' is not a time; use ISO 8601 like 2025-11-06T17:04:00-04:00 or 2025-11-06T21:04:00Z, or 'now'")
}

/// A route by ID (canonical, or unprefixed when one feed has it) or by short or long name, or an explanation.
func resolveRoute(_ text: String, in tt: Timetable) throws -> RouteInfo {
    switch tt.lookupRoute(id: text) {
    case .found(let r): return tt.routeInfo(r)
    case .ambiguous(let ids): throw CLIError("'\(text)' is a route of several feeds; name one by ID:\n" + ids.map { "  " + $0 }.joined(separator: "\n"))
    case .notFound: break
    }
    let all = (0..<tt.routeCount).map { tt.routeInfo(RouteIndex(raw: UInt32($0))) }
    for match in [{ (r: RouteInfo) in r.shortName.caseInsensitiveCompare(text) == .orderedSame },
                  { (r: RouteInfo) in r.longName.caseInsensitiveCompare(text) == .orderedSame }] {
        let found = all.filter(match)
        if found.count == 1 { return found[0] }
        if found.count > 1 {
            let list = found.prefix(12).map { "  \($0.id)  \($0.displayName)  \($0.longName)" }.joined(separator: "\n")
            throw CLIError("'\(text)' matches several routes; name one by ID:\n\(list)")
        }
    }
    throw CLIError("no route matches '\(text)'; give a route ID or short name")
}

/// The terminal rendering of a list of alerts.
struct AlertsView {
    var timetable: Timetable
    var book: AlertBook
    var alerts: [Alert]
    var inactive: Int
    var at: Instant
    var zone: TimeZone
    var languages: [String]
    var simulated: Bool
    /// "Stasiun Blok M", "route 7B", or nil for all alerts.
    var subject: String?
    var width = 80

    func render(_ t: Terminal) -> String {
        let when = LocalTime(at, in: zone)
        var out = [t.bold("Alerts" + (subject.map { " · \($0)" } ?? "")) + t.dim("  at \(when.date.isoString) \(when.hhmm) (\(zone.identifier))")]
        if simulated { out.append(t.yellow("Simulated data, for demonstration.")) }
        out.append("")
        if alerts.isEmpty {
            out.append(subject == nil ? "No alerts are active at this time." : "No alerts for \(subject!) are active at this time.")
        }
        let high = alerts.filter(\.isHighPriority), other = alerts.filter { !$0.isHighPriority }
        if !high.isEmpty && !other.isEmpty { out.append(t.bold("High priority")) }
        for a in high { out += block(a, t) }
        if !high.isEmpty && !other.isEmpty { out.append(t.bold("Other alerts")) }
        for a in other { out += block(a, t) }
        var notes: [String] = []
        if inactive > 0 {
            notes.append("\(inactive) more alert\(inactive == 1 ? "" : "s")\(subject == nil ? "" : " for \(subject!)") in the feed "
                         + "\(inactive == 1 ? "is" : "are") not active at this time; try --at with another time.")
        }
        if subject != nil && alerts.isEmpty && inactive == 0 && !book.alerts.isEmpty {
            notes.append("The feed holds \(book.alerts.count) alert\(book.alerts.count == 1 ? "" : "s") in all, none about \(subject!).")
        }
        let r = book.report
        var unknown: [String] = []
        if r.unknownStops > 0 { unknown.append("\(r.unknownStops) of \(r.matchedStops + r.unknownStops) stops (\(r.unknownStopExamples.joined(separator: ", ")))") }
        if r.unknownRoutes > 0 { unknown.append("\(r.unknownRoutes) of \(r.matchedRoutes + r.unknownRoutes) routes (\(r.unknownRouteExamples.joined(separator: ", ")))") }
        if r.unknownTrips > 0 { unknown.append("\(r.unknownTrips) of \(r.matchedTrips + r.unknownTrips) trips (\(r.unknownTripExamples.joined(separator: ", ")))") }
        if r.unknownAgencies > 0 { unknown.append("\(r.unknownAgencies) agencies (\(r.unknownAgencyExamples.joined(separator: ", ")))") }
        if !unknown.isEmpty { notes.append("Not in the timetable: " + unknown.joined(separator: "; ") + ".") }
        out += notes.map { t.dim($0) }
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n")
    }

    /// One alert as a block of lines: badge and header, description, period, what it concerns, URL.
    func block(_ a: Alert, _ t: Terminal) -> [String] {
        let label = a.severity != .unknown ? a.severity.rawValue.uppercased()
            : [.other, .unknown].contains(a.effect) ? "NOTICE" : a.effect.words.uppercased()
        let badge = a.isHighPriority ? t.red(t.bold("[\(label)]")) : a.severity == .warning ? t.yellow("[\(label)]")
            : a.severity == .info ? t.cyan("[\(label)]") : t.dim("[\(label)]")
        let indent = "    "
        var lines: [String] = []
        let header = collapse(a.header.best(for: languages) ?? a.description.best(for: languages) ?? "(no text)")
        let headerLines = wrap(header, width: width - label.count - 3)
        lines.append(badge + " " + t.bold(headerLines[0]))
        lines += headerLines.dropFirst().map { String(repeating: " ", count: label.count + 3) + t.bold($0) }
        if a.header.best(for: languages) != nil, let description = a.description.best(for: languages), collapse(description) != header {
            lines += paragraphs(description).map { $0.isEmpty ? "" : indent + $0 }
        }
        lines.append(indent + t.dim(period(a)))
        let about = informs(a)
        if !about.isEmpty { lines += wrap(about, width: width - indent.count).map { indent + t.dim($0) } }
        if let url = a.url.best(for: languages) { lines.append(indent + t.cyan(url)) }
        lines.append("")
        return lines
    }

    /// The period in force at `at` (or the next one), in words.
    private func period(_ a: Alert) -> String {
        guard !a.activePeriods.isEmpty else { return "Active: no period given (always)" }
        let p = a.period(containing: at) ?? a.activePeriods.first { ($0.start ?? at) > at } ?? a.activePeriods[0]
        func show(_ i: Instant) -> String { let l = LocalTime(i, in: zone); return "\(l.date.isoString) \(l.hhmm)" }
        // Feeds write far-future ends (Halifax: the year 3000) to mean "until further notice".
        let openEnd = p.end.map { $0.epochSeconds - (p.start ?? at).epochSeconds > 50 * 365 * 86_400 } ?? true
        let from = p.start.map { "from \(show($0))" } ?? "until"
        var text = "Active: " + (p.start == nil ? "" : from + " ")
        text += openEnd ? "until further notice" : (p.start == nil ? "" : "to ") + show(p.end!)
        if p.start == nil && openEnd { text = "Active: until further notice" }
        let more = a.activePeriods.count - 1
        return more > 0 ? text + " (+\(more) more period\(more == 1 ? "" : "s"))" : text
    }

    /// "Routes 7B · Stops Barrington St After South St (6096), …", or the agency for a network-wide alert.
    private func informs(_ a: Alert) -> String {
        var routes: [String] = [], stops: [String] = [], trips: [String] = [], agencies: [String] = []
        func add(_ list: inout [String], _ s: String) { if !list.contains(s) { list.append(s) } }
        for e in a.informedEntities {
            if let r = e.routeID ?? e.tripRouteID {
                add(&routes, timetable.route(id: r).map { timetable.routeInfo($0).displayName } ?? r)
            }
            if let s = e.stopID { add(&stops, timetable.stop(id: s).map { timetable.place($0).name } ?? s) }
            if let trip = e.tripID { add(&trips, trip) }
            if let id = e.agencyID, e.routeID == nil, e.stopID == nil, e.tripID == nil {
                add(&agencies, timetable.agencies.first { $0.id == id }?.name ?? id)
            }
        }
        func list(_ name: String, _ items: [String]) -> String? {
            guard !items.isEmpty else { return nil }
            let shown = items.prefix(4).joined(separator: ", ")
            return "\(name) \(shown)\(items.count > 4 ? " and \(items.count - 4) more" : "")"
        }
        return [agencies.isEmpty ? nil : "All of " + agencies.joined(separator: ", "), list("Routes", routes), list("Trips", trips),
                list("Stops", stops)].compactMap(\.self).joined(separator: " · ")
    }

    private func collapse(_ s: String) -> String {
        s.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The description's own line breaks kept (feeds format with them), runs of blank lines made one, long lines wrapped.
    private func paragraphs(_ s: String) -> [String] {
        var out: [String] = []
        for line in s.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            let text = collapse(String(line))
            if text.isEmpty { if out.last != "" && !out.isEmpty { out.append("") }; continue }
            out += wrap(text, width: width - 4)
        }
        while out.last == "" { out.removeLast() }
        return out
    }

    private func wrap(_ s: String, width: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in s.split(separator: " ") {
            if current.isEmpty { current = String(word) } else if current.count + 1 + word.count <= width { current += " " + word } else {
                lines.append(current); current = String(word)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}
