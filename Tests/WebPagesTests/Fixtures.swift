import API
import Foundation
import OnwardCore
import WebPages

/// Small boards, services and alerts written as the API's JSON (the wire
/// types' initialisers take domain values, so tests decode them instead).
enum Fixtures {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(json.utf8))
        } catch {
            fatalError("fixture does not decode as \(T.self): \(error)")
        }
    }

    /// 08:00 on 23 November 2026 in Jakarta (UTC+7).
    static let now = Instant(epochSeconds: 1_795_395_600)

    static func context(_ language: Language = .en, theme: Theme = .system) -> PageContext {
        PageContext(language: language, theme: theme, attribution: ["Timetable: MRT Jakarta (CC BY 4.0)"], now: now)
    }

    static let stopJSON = """
    {"id": "SBKM", "name": "Stasiun MRT Blok M BCA", "code": "M06", "kind": "station",
     "latitude": -6.2444643, "longitude": 106.7981332, "timeZone": "Asia/Jakarta"}
    """

    static func entry(trip: String, scheduled: String, expected: String? = nil, status: String, delay: Int? = nil,
                      headsign: String = "Bundaran HI", platform: String? = "3", color: String? = "CA1F47",
                      extra: String = "") -> String {
        var fields = [
            "\"tripId\": \"\(trip)\"", "\"routeId\": \"MRTJ_NS\"", "\"routeShortName\": \"NS\"",
            "\"routeLongName\": \"Lin Utara-Selatan\"", "\"headsign\": \"\(headsign)\"",
            "\"origin\": \"Stasiun MRT Lebak Bulus\"", "\"stopId\": \"GBKM03\"", "\"stopName\": \"Stasiun MRT Blok M BCA\"",
            "\"serviceDate\": \"2026-11-23\"", "\"scheduledDeparture\": \"\(scheduled)\"", "\"status\": \"\(status)\"",
        ]
        if let expected { fields.append("\"expectedDeparture\": \"\(expected)\"") }
        if let delay { fields.append("\"delaySeconds\": \(delay)") }
        if let platform { fields.append("\"platform\": \"\(platform)\"") }
        if let color { fields.append("\"routeColor\": \"\(color)\"") }
        if !extra.isEmpty { fields.append(extra) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func alert(id: String, header: String, high: Bool, severity: String = "warning", url: String? = nil,
                      description: String = "Please allow extra time.") -> String {
        """
        {"id": "\(id)", "cause": "maintenance", "effect": "\(high ? "significantDelays" : "accessibilityIssue")",
         "severity": "\(severity)", "highPriority": \(high), "header": "\(header)", "description": "\(description)",
         \(url.map { "\"url\": \"\($0)\"," } ?? "") "language": "en",
         "activePeriods": [{"start": "2026-11-23T07:30:00+07:00", "end": "2026-11-23T10:00:00+07:00"}],
         "informedEntities": [{"stopId": "SBKM"}, {"routeId": "MRTJ_NS"}]}
        """
    }

    /// A departures board: on time, late, cancelled, skipped, a platform change and two alerts.
    static func board(live: String? = #"{"simulated": false, "updatedAt": "2026-11-23T00:59:00+00:00", "stale": false, "unavailable": []}"#,
                      entries: [String]? = nil, via: String? = nil) -> BoardDTO {
        let rows = entries ?? [
            entry(trip: "T-ONTIME", scheduled: "2026-11-23T08:03:20+07:00", expected: "2026-11-23T08:03:14+07:00",
                  status: "onTime", delay: -6),
            entry(trip: "T-LATE", scheduled: "2026-11-23T08:05:10+07:00", expected: "2026-11-23T08:10:37+07:00",
                  status: "late", delay: 327, headsign: "Lebak Bulus", platform: "1"),
            entry(trip: "T-CANCELLED", scheduled: "2026-11-23T08:08:20+07:00", status: "cancelled"),
            entry(trip: "T-SKIPPED", scheduled: "2026-11-23T08:12:00+07:00", status: "skipped"),
            entry(trip: "T-PLATFORM", scheduled: "2026-11-23T08:15:00+07:00", expected: "2026-11-23T08:15:00+07:00",
                  status: "onTime", delay: 0, platform: "4", extra: "\"platformChanged\": true, \"alerts\": [\"A-HIGH\"]"),
        ]
        let json = """
        {"stop": \(stopJSON), \(via.map { "\"via\": \($0)," } ?? "")
         "departures": [\(rows.joined(separator: ",\n"))],
         \(live.map { "\"live\": \($0)," } ?? "")
         "alerts": {"highPriority": [\(alert(id: "A-HIGH", header: "Major delays on the North-South line", high: true, severity: "severe"))],
                    "other": [\(alert(id: "A-OTHER", header: "Escalator out of service", high: false))]}}
        """
        return decode(BoardDTO.self, json)
    }

    static func call(_ stop: String, _ name: String, seq: Int, time: String, status: String, expected: String? = nil,
                     delay: Int? = nil, platform: String = "2") -> String {
        var fields = [
            "\"stopId\": \"\(stop)\"", "\"stopName\": \"\(name)\"", "\"stopSequence\": \(seq)",
            "\"platform\": \"\(platform)\"", "\"scheduledArrival\": \"\(time)\"", "\"scheduledDeparture\": \"\(time)\"",
            "\"pickup\": \"regular\"", "\"dropOff\": \"regular\"", "\"timepoint\": true", "\"status\": \"\(status)\"",
        ]
        if let expected { fields += ["\"expectedArrival\": \"\(expected)\"", "\"expectedDeparture\": \"\(expected)\""] }
        if let delay { fields.append("\"delaySeconds\": \(delay)") }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A service part-way along: two calls passed, on its way to the third, the fourth skipped.
    static func service(cancelled: Bool = false, vehicleStatus: String = "inTransitTo", vehicleStop: String = "GBKA02") -> ServiceDTO {
        let calls = [
            call("GLBB02", "Lebak Bulus", seq: 0, time: "2026-11-23T07:55:00+07:00", status: "departed",
                 expected: "2026-11-23T07:55:12+07:00", delay: 12),
            call("GFTM02", "Fatmawati", seq: 1, time: "2026-11-23T07:58:10+07:00", status: "departed",
                 expected: "2026-11-23T07:59:34+07:00", delay: 84),
            call("GBKA02", "Blok A", seq: 2, time: "2026-11-23T08:05:40+07:00", status: "late",
                 expected: "2026-11-23T08:07:29+07:00", delay: 109),
            call("GBKM03", "Blok M", seq: 3, time: "2026-11-23T08:08:20+07:00", status: "skipped"),
            call("GBHI02", "Bundaran HI", seq: 4, time: "2026-11-23T08:24:40+07:00", status: "onTime",
                 expected: "2026-11-23T08:24:52+07:00", delay: 12),
        ]
        let json = """
        {"tripId": "NS-WD-LBB-BHI-027", "routeId": "MRTJ_NS", "routeShortName": "NS", "routeLongName": "Lin Utara-Selatan",
         "headsign": "Bundaran HI", "serviceDate": "2026-11-23", \(cancelled ? "\"cancelled\": true," : "")
         "vehicle": {"id": "SIM-26", "label": "Train 27", "stopId": "\(vehicleStop)", "stopStatus": "\(vehicleStatus)",
                     "reportedAt": "2026-11-23T00:58:00+00:00"},
         "live": {"simulated": true, "updatedAt": "2026-11-23T00:59:30+00:00", "stale": false, "unavailable": []},
         "alerts": [\(alert(id: "S-1", header: "Reduced speed near Blok A", high: true))],
         "calls": [\(calls.joined(separator: ",\n"))]}
        """
        return decode(ServiceDTO.self, json)
    }

    static func alerts(_ items: [String], stop: Bool = false) -> AlertsDTO {
        decode(AlertsDTO.self, """
        {"at": "2026-11-23T08:00:00+07:00", \(stop ? "\"stop\": \(stopJSON)," : "") "alerts": [\(items.joined(separator: ","))],
         "inactiveCount": 2, "totalInFeeds": 4}
        """)
    }

    static let stops = decode(StopsDTO.self, """
    {"stops": [\(stopJSON), {"id": "SBKA", "name": "Stasiun MRT Blok A", "code": "M05", "kind": "station",
     "latitude": -6.2557793, "longitude": 106.7971403, "timeZone": "Asia/Jakarta", "distanceMetres": 1234.5}]}
    """)

    /// Every page the module renders, in both languages, for the checks that apply to all of them.
    static func allPages() -> [(name: String, html: String)] {
        var pages: [(String, String)] = []
        for language in Language.allCases {
            let c = context(language, theme: .dark)
            let l = language.rawValue
            pages += [
                ("home-\(l)", HomePage.render(context: c, stations: stops.stops)),
                ("search-\(l)", SearchPage.render(query: "blok", results: stops, context: c)),
                ("search-empty-\(l)", SearchPage.render(query: "zzz", results: StopsDTO([]), context: c)),
                ("board-\(l)", BoardPage.render(board(), context: c)),
                ("board-empty-\(l)", BoardPage.render(board(live: nil, entries: []), context: c, options: .init(windowMinutes: 60))),
                ("board-fragment-\(l)", BoardPage.fragment(board(), context: c)),
                ("service-\(l)", ServicePage.render(service(), context: c, routeColor: "CA1F47")),
                ("service-cancelled-\(l)", ServicePage.render(service(cancelled: true), context: c)),
                ("service-fragment-\(l)", ServicePage.fragment(service(), context: c)),
                ("alerts-\(l)", AlertsPage.render(alerts([alert(id: "X", header: "Lifts closed", high: false, url: "https://example.org/a")]),
                                                 context: c)),
                ("alerts-none-\(l)", AlertsPage.render(alerts([], stop: true), context: c)),
                ("error-500-\(l)", ErrorPage.render(status: 500, context: c)),
                ("error-404-\(l)", ErrorPage.render(status: 404, context: c)),
                ("stop-not-found-\(l)", ErrorPage.stopNotFound("NOPE", context: c)),
                ("service-not-running-\(l)", ErrorPage.serviceNotRunning("T1", date: "2026-11-23", context: c)),
            ]
        }
        return pages
    }
}
