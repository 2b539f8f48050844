import API
import OnwardCore

/// One alert as a card, and lists of them.
enum AlertView {
    static func list(_ alerts: [AlertDTO], headingLevel: Int, names: EntityNames, strings s: Strings) -> HTML {
        let items = alerts.map { "<li>\(card($0, headingLevel: headingLevel, names: names, strings: s))</li>" as HTML }
        return "<ul class=\"alert-list\">\(items)</ul>"
    }

    static func card(_ a: AlertDTO, headingLevel: Int, names: EntityNames, strings s: Strings) -> HTML {
        let severity = Severity(api: a.severity)
        let level = String(max(2, min(6, headingLevel)))
        let lang = safeLanguageTag(a.language)
        var meta: [HTML] = ["<span class=\"severity \(severity.cssClass)\">\(s(severity.key))</span>"]
        let labels = [effectKey(a.effect), causeKey(a.cause)].compactMap { $0 }.map { s($0) }
        if !labels.isEmpty { meta.append("<span class=\"alert-kind\">\(labels.joined(separator: " · "))</span>") }

        let title = a.header ?? (a.description == nil ? s(.alertUntitled) : nil)
        var parts: [HTML] = ["<div class=\"alert-meta\">\(HTML.join(meta, separator: " "))</div>"]
        if let title {
            parts.append("<h\(HTML(trusted: level)) class=\"alert-title\"\(HTML.attribute("lang", a.header == nil ? nil : lang))>\(title)</h\(HTML(trusted: level))>")
        }
        if let description = a.description, description != a.header {
            let paragraphs = description.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
            let body = paragraphs.map { "<p>\($0)</p>" as HTML }
            parts.append("<div class=\"alert-body\"\(HTML.attribute("lang", lang))>\(body)</div>")
        }

        var facts: [HTML] = []
        facts.append(fact(s(.alertActiveLabel), HTML.join(periods(a.activePeriods, strings: s).map { "<span>\($0)</span>" as HTML },
                                                           separator: "<br>")))
        let routes = unique(a.informedEntities.compactMap(\.routeId))
        if !routes.isEmpty {
            let links = routes.map { id -> HTML in "<a href=\"\(Links.alerts(route: id))\">\(names.routes[id] ?? id)</a>" }
            facts.append(fact(s(.alertLines), HTML.join(links, separator: ", ")))
        }
        let stops = unique(a.informedEntities.compactMap(\.stopId))
        if !stops.isEmpty {
            let links = stops.map { id -> HTML in "<a href=\"\(Links.board(id))\">\(names.stops[id] ?? id)</a>" }
            facts.append(fact(s(.alertStations), HTML.join(links, separator: ", ")))
        }
        parts.append("<dl class=\"alert-facts\">\(facts)</dl>")
        if let url = Links.external(a.url) {
            parts.append("""
            <p class="alert-more"><a href="\(url)" rel="noopener noreferrer external" target="_blank">\(s(.alertMoreInfo))</a></p>
            """)
        }
        return """
        <article class="alert \(severity.cssClass)" id="\(anchor(a.id))">
        \(HTML.join(parts, separator: "\n"))
        </article>
        """
    }

    static func fact(_ label: String, _ value: HTML) -> HTML {
        "<div><dt>\(label)</dt><dd>\(value)</dd></div>"
    }

    /// Active periods in words; an open period says so.
    static func periods(_ periods: [AlertDTO.PeriodDTO], strings s: Strings) -> [String] {
        if periods.isEmpty { return [s(.alertActiveAlways)] }
        let shown = periods.prefix(4).map { p -> String in
            let start = p.start.flatMap(WallClock.init(iso:)), end = p.end.flatMap(WallClock.init(iso:))
            switch (start, end) {
            case let (start?, end?):
                let endText = start.date == end.date ? end.hhmm : s.dateTime(end)
                return s(.alertActiveBetween, ["start": s.dateTime(start), "end": endText])
            case let (start?, nil): return s(.alertActiveFrom, ["start": s.dateTime(start)])
            case let (nil, end?): return s(.alertActiveUntil, ["end": s.dateTime(end)])
            case (nil, nil): return s(.alertActiveAlways)
            }
        }
        return periods.count > 4 ? shown + ["…"] : shown
    }

    /// The element ID of an alert's card: `alert-` and the ID with anything
    /// but letters, digits, `-` and `_` replaced.
    static func anchor(_ id: String) -> String {
        "alert-" + String(id.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
    }

    /// A BCP 47 tag from a feed, if it looks like one (letters, digits, hyphens).
    static func safeLanguageTag(_ tag: String?) -> String? {
        guard let tag, !tag.isEmpty, tag.count <= 35,
              tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return tag
    }

    static func unique(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    static func causeKey(_ raw: String) -> L10nKey? {
        switch raw {
        case "technicalProblem": .causeTechnicalProblem
        case "strike": .causeStrike
        case "demonstration": .causeDemonstration
        case "accident": .causeAccident
        case "holiday": .causeHoliday
        case "weather": .causeWeather
        case "maintenance": .causeMaintenance
        case "construction": .causeConstruction
        case "policeActivity": .causePoliceActivity
        case "medicalEmergency": .causeMedicalEmergency
        default: nil // unknown and other say nothing worth reading
        }
    }

    static func effectKey(_ raw: String) -> L10nKey? {
        switch raw {
        case "noService": .effectNoService
        case "reducedService": .effectReducedService
        case "significantDelays": .effectSignificantDelays
        case "detour": .effectDetour
        case "additionalService": .effectAdditionalService
        case "modifiedService": .effectModifiedService
        case "stopMoved": .effectStopMoved
        case "accessibilityIssue": .effectAccessibilityIssue
        default: nil
        }
    }

    enum Severity {
        case severe, warning, info, unknown

        init(api: String) {
            self = switch api {
            case "severe": .severe
            case "warning": .warning
            case "info": .info
            default: .unknown
            }
        }

        var key: L10nKey {
            switch self {
            case .severe: .severitySevere
            case .warning: .severityWarning
            case .info: .severityInfo
            case .unknown: .severityUnknown
            }
        }

        var cssClass: String {
            switch self {
            case .severe: "severity-severe"
            case .warning: "severity-warning"
            case .info: "severity-info"
            case .unknown: "severity-unknown"
            }
        }
    }
}
