import API
import Foundation
import OnwardCore

/// Alerts in a terminal, from the API's answer (what `--json` prints and the server sends):
/// a block per alert, with its period and what it concerns named for people.
struct AlertText {
    /// Names of the stops and routes the alerts mention.
    var names: EntityNames
    /// The moment whose period is shown.
    var at: Instant
    var zone: TimeZone
    var width = 80

    /// One alert as a block of lines: badge and header, description, period, what it concerns, URL.
    func block(_ a: AlertDTO, _ t: Terminal) -> [String] {
        let severity = Alert.Severity(rawValue: a.severity) ?? .unknown
        let effect = Alert.Effect(rawValue: a.effect) ?? .unknown
        let label = severity != .unknown ? severity.rawValue.uppercased()
            : [.other, .unknown].contains(effect) ? "NOTICE" : effect.words.uppercased()
        let badge = a.highPriority ? t.red(t.bold("[\(label)]")) : severity == .warning ? t.yellow("[\(label)]")
            : severity == .info ? t.cyan("[\(label)]") : t.dim("[\(label)]")
        let indent = "    "
        var lines: [String] = []
        let header = collapse(a.header ?? a.description ?? "(no text)")
        let headerLines = wrap(header, width: width - label.count - 3)
        lines.append(badge + " " + t.bold(headerLines[0]))
        lines += headerLines.dropFirst().map { String(repeating: " ", count: label.count + 3) + t.bold($0) }
        if a.header != nil, let description = a.description, collapse(description) != header {
            lines += paragraphs(description).map { $0.isEmpty ? "" : indent + $0 }
        }
        lines.append(indent + t.dim(period(a)))
        let about = informs(a)
        if !about.isEmpty { lines += wrap(about, width: width - indent.count).map { indent + t.dim($0) } }
        if let url = a.url { lines.append(indent + t.cyan(url)) }
        lines.append("")
        return lines
    }

    /// The period in force at `at` (or the next one), in words.
    private func period(_ a: AlertDTO) -> String {
        guard !a.activePeriods.isEmpty else { return "Active: no period given (always)" }
        let periods = a.activePeriods.map { Alert.ActivePeriod(start: $0.start.flatMap(Instant.init(iso8601:)), end: $0.end.flatMap(Instant.init(iso8601:))) }
        let p = periods.first { $0.contains(at) } ?? periods.first { ($0.start ?? at) > at } ?? periods[0]
        func show(_ i: Instant) -> String { let l = LocalTime(i, in: zone); return "\(l.date.isoString) \(l.hhmm)" }
        // Feeds write far-future ends (Halifax: the year 3000) to mean "until further notice".
        let openEnd = p.end.map { $0.epochSeconds - (p.start ?? at).epochSeconds > 50 * 365 * 86_400 } ?? true
        let from = p.start.map { "from \(show($0))" } ?? "until"
        var text = "Active: " + (p.start == nil ? "" : from + " ")
        text += openEnd ? "until further notice" : (p.start == nil ? "" : "to ") + show(p.end!)
        if p.start == nil && openEnd { text = "Active: until further notice" }
        let more = periods.count - 1
        return more > 0 ? text + " (+\(more) more period\(more == 1 ? "" : "s"))" : text
    }

    /// "Routes 7B · Stops Barrington St After South St (6096), …", or the agency for a network-wide alert.
    private func informs(_ a: AlertDTO) -> String {
        var routes: [String] = [], stops: [String] = [], trips: [String] = [], agencies: [String] = []
        func add(_ list: inout [String], _ s: String) { if !list.contains(s) { list.append(s) } }
        for e in a.informedEntities {
            if let r = e.routeId { add(&routes, names.routes[r] ?? r) }
            if let s = e.stopId { add(&stops, names.stops[s] ?? s) }
            if let trip = e.tripId { add(&trips, trip) }
            if let id = e.agencyId, e.routeId == nil, e.stopId == nil, e.tripId == nil { add(&agencies, id) }
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
