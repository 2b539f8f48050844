import DataSources
import Foundation
import GTFS
import GTFSRealtime
import OnwardCore
import OnwardTesting
import SwiftProtobuf
import Testing
import Timetable

/// The real captures and their static feeds, each read once per test run.
private enum AlertCaptures {
    static let folder = Fixtures.sharedData.appendingPathComponent("gtfs-rt")
    static let halifaxBytes = Result { try Data(contentsOf: folder.appendingPathComponent("halifax/Alerts-2025-11-06T2104Z.pb")) }
    static let bartBytes = Result { try Data(contentsOf: folder.appendingPathComponent("bart/bart-alerts-2019-08-07T1745Z.pb")) }
    static let halifax = Result { try GTFSImporter.load(paths: [Fixtures.gtfs("halifax-transit-2025-08")]).timetable }
    static let bart = Result { try GTFSImporter.load(paths: [Fixtures.gtfs("bart-2019-02")]).timetable }
    /// The Halifax capture's header timestamp, 2025-11-06 21:04:14 UTC.
    static let halifaxCaptured = Instant(epochSeconds: 1_762_463_054)
}

/// A small network: station STN with platforms P1 and P2, stop S2, an unused stop S3.
/// Route R1 (bus, both directions) calls at P1 and S2; route R2 (subway) at P2 and S2.
private func inlineTimetable() throws -> Timetable { try InlineFeed.load(inlineFiles).timetable }

private let inlineFiles = [
        "stops.txt": """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            STN,Central,40.0,-74.0,1,
            P1,Central Platform 1,40.0,-74.0,0,STN
            P2,Central Platform 2,40.0,-74.0,0,STN
            S2,Elm St,40.01,-74.0,0,
            S3,Unused,40.02,-74.0,0,
            """,
        "routes.txt": """
            route_id,agency_id,route_short_name,route_long_name,route_type
            R1,A,1,Line One,3
            R2,A,2,Line Two,1
            """,
        "trips.txt": """
            route_id,service_id,trip_id,direction_id
            R1,DAILY,T1,0
            R1,DAILY,T2,1
            R2,DAILY,T3,0
            """,
        "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            T1,08:00:00,08:00:00,P1,1
            T1,08:10:00,08:10:00,S2,2
            T2,09:00:00,09:00:00,S2,1
            T2,09:10:00,09:10:00,P1,2
            T3,08:30:00,08:30:00,P2,1
            T3,08:40:00,08:40:00,S2,2
            """,
        "calendar.txt": """
            service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
            DAILY,1,1,1,1,1,1,1,20250101,20251231
            """,
]

/// Builds a GTFS-Realtime alert entity with the generated types.
private func alertEntity(_ id: String, cause: TransitRealtime_Alert.Cause? = nil, effect: TransitRealtime_Alert.Effect? = nil,
                         severity: TransitRealtime_Alert.SeverityLevel? = nil, periods: [(UInt64?, UInt64?)] = [],
                         header: [(String, String?)] = [], entities: [TransitRealtime_EntitySelector] = []) -> TransitRealtime_FeedEntity {
    var a = TransitRealtime_Alert()
    if let cause { a.cause = cause }
    if let effect { a.effect = effect }
    if let severity { a.severityLevel = severity }
    a.activePeriod = periods.map { p in
        var r = TransitRealtime_TimeRange()
        if let s = p.0 { r.start = s }
        if let e = p.1 { r.end = e }
        return r
    }
    if !header.isEmpty { a.headerText = translated(header) }
    a.informedEntity = entities
    var e = TransitRealtime_FeedEntity()
    e.id = id
    e.alert = a
    return e
}

private func translated(_ texts: [(String, String?)]) -> TransitRealtime_TranslatedString {
    var s = TransitRealtime_TranslatedString()
    s.translation = texts.map { text, language in
        var t = TransitRealtime_TranslatedString.Translation()
        t.text = text
        if let language { t.language = language }
        return t
    }
    return s
}

private func selector(agency: String? = nil, route: String? = nil, routeType: Int32? = nil, direction: UInt32? = nil,
                      trip: String? = nil, stop: String? = nil) -> TransitRealtime_EntitySelector {
    var s = TransitRealtime_EntitySelector()
    if let agency { s.agencyID = agency }
    if let route { s.routeID = route }
    if let routeType { s.routeType = routeType }
    if let direction { s.directionID = direction }
    if let trip { var t = TransitRealtime_TripDescriptor(); t.tripID = trip; s.trip = t }
    if let stop { s.stopID = stop }
    return s
}

/// Serializes a feed of these entities and decodes it back, as a realtime source would arrive.
/// `idPrefix`: the inline timetable's feed, "test:", as a realtime feed bound to it would be read.
private func roundTrip(_ entities: [TransitRealtime_FeedEntity], idPrefix: String = "test:") throws -> [Alert] {
    var m = TransitRealtime_FeedMessage()
    m.header.gtfsRealtimeVersion = "2.0"
    m.header.timestamp = 1_750_000_000
    m.entity = entities
    let bytes: Data = try m.serializedBytes()
    return try AlertDecoding.alerts(from: bytes, source: "inline", idPrefix: idPrefix)
}

private func count<T: Hashable>(_ values: [T]) -> [T: Int] { values.reduce(into: [:]) { $0[$1, default: 0] += 1 } }

@Suite("Alerts")
struct AlertTests {
    // MARK: - Real captures

    @Test("Halifax: 46 alerts with the causes, effects and texts of the capture")
    func halifaxDecoding() throws {
        let alerts = try AlertDecoding.alerts(from: try AlertCaptures.halifaxBytes.get(), source: "halifax")
        #expect(alerts.count == 46)
        #expect(count(alerts.map(\.cause)) == [.construction: 43, .other: 2, .maintenance: 1])
        #expect(count(alerts.map(\.effect)) == [.other: 35, .detour: 7, .stopMoved: 4])
        #expect(alerts.allSatisfy { $0.severity == .unknown }, "the capture sets no severity_level")
        #expect(alerts.allSatisfy { $0.activePeriods.count == 1 && !$0.header.isEmpty && !$0.description.isEmpty })
        #expect(alerts.allSatisfy { $0.header.translations.map(\.language) == ["en"] })
        #expect(alerts.reduce(0) { $0 + $1.informedEntities.count } == 259)
        #expect(alerts.allSatisfy { $0.informedEntities.allSatisfy { $0.routeID != nil && $0.stopID != nil && $0.agencyID == nil } })

        let first = try #require(alerts.first)
        #expect(first.id == "94597")
        #expect(first.header.best(for: ["en"]) == "Stop closure Barrington St After South St (6096) is closed for construction")
        #expect(first.description.best(for: ["fr"])?.hasPrefix("Stop Closure Notice:\r\nRoute: 7B Peninsula Inbound") == true)
        // The feed's "until further notice" is the year 3000.
        #expect(first.activePeriods == [Alert.ActivePeriod(start: Instant(epochSeconds: 1_704_704_400), end: Instant(epochSeconds: 32_503_694_400))])
        #expect(first.informedEntities.map(\.stopID) == ["6096", "8293", "6113"])
        #expect(first.informedEntities.allSatisfy { $0.routeID == "7B" })
    }

    @Test("Halifax: informed entities matched against the static feed, unknown ones counted")
    func halifaxMatch() throws {
        let book = AlertBook(alerts: try AlertDecoding.alerts(from: try AlertCaptures.halifaxBytes.get(), idPrefix: "halifax-transit-2025-08:"),
                             timetable: try AlertCaptures.halifax.get())
        let r = book.report
        #expect(r.alerts == 46 && r.informedEntities == 259)
        #expect((r.matchedStops, r.unknownStops, r.unknownStopExamples) == (179, 1, ["halifax-transit-2025-08:6611"]))
        #expect((r.matchedRoutes, r.unknownRoutes, r.unknownRouteExamples) == (19, 1, ["halifax-transit-2025-08:hwst"]))
        #expect((r.matchedTrips, r.unknownTrips, r.matchedAgencies, r.unknownAgencies) == (0, 0, 0, 0))
        // Only (route hwst, stop 6611) names nothing the timetable knows.
        #expect(r.unmatchedEntities == 1)
    }

    @Test("Halifax: station, station-platform and route queries, ordered and filtered by time")
    func halifaxQueries() throws {
        let tt = try AlertCaptures.halifax.get()
        let book = AlertBook(alerts: try AlertDecoding.alerts(from: try AlertCaptures.halifaxBytes.get(), idPrefix: "halifax-transit-2025-08:"), timetable: tt)
        let at = AlertCaptures.halifaxCaptured
        let all = book.all(at: at)
        #expect(all.count == 46 && book.inactiveCount(at: at) == 0)
        // No severities: earliest start first (94597 from 2024-01-08), ties by ID; the newest are the three trip notices.
        #expect(all.first?.id == "94597")
        #expect(all.suffix(3).map(\.id) == ["176229", "176235", "176234"])
        #expect(all.count(where: \.isHighPriority) == 11, "7 detours and 4 moved stops")
        // At 2025-11-07 00:00 UTC the three trip notices and the two route 72 detours have ended.
        let later = Instant(epochSeconds: 1_762_473_600)
        #expect(book.all(at: later).count == 41 && book.inactiveCount(at: later) == 5)
        #expect(book.all(at: Instant(epochSeconds: 1_700_000_000)).isEmpty, "nothing had started in November 2023")

        func ids(_ stop: String) throws -> [String] { book.stationAlerts(for: try #require(tt.stop(id: stop)), at: at).map(\.id) }
        #expect(try ids("6096") == ["94597"])
        #expect(try ids("7323") == ["147150", "147151"])
        // Bridge Terminal (station 10001): the alert about its bay 13 shows at the station and the bay, not at bay 1.
        #expect(try ids("10001") == ["176235"])
        #expect(try ids("7613") == ["176235"])
        #expect(try ids("7601") == [])
        #expect(book.stationAlerts(for: try #require(tt.stop(id: "10001")), at: later).isEmpty)

        #expect(book.serviceAlerts(route: "halifax-transit-2025-08:28", trip: nil, at: at).map(\.id) == ["171199", "171202"])
        #expect(book.serviceAlerts(route: "halifax-transit-2025-08:137", trip: nil, at: at).map(\.id) == ["171201", "171203", "176234"])
        #expect(book.serviceAlerts(route: "halifax-transit-2025-08:7B", trip: nil, at: at).map(\.id) == ["94597", "158720", "173521"])

        // A board at 6096 shows its own stop closure; route 7B's closures elsewhere stay on their stops' boards.
        let board = book.boardAlerts(for: try #require(tt.stop(id: "6096")), routes: ["halifax-transit-2025-08:7B"], at: at)
        #expect(board.highPriority.isEmpty && board.other.map(\.id) == ["94597"])
        let moved = book.boardAlerts(for: try #require(tt.stop(id: "7323")), routes: ["halifax-transit-2025-08:8", "halifax-transit-2025-08:87"], at: at)
        #expect(moved.highPriority.map(\.id) == ["147150", "147151"] && moved.other.isEmpty)
    }

    @Test("BART: one agency-wide alert, en-US text and a URL, on every BART stop and route")
    func bart() throws {
        let alerts = try AlertDecoding.alerts(from: try AlertCaptures.bartBytes.get(), source: "bart")
        let a = try #require(alerts.first)
        #expect(alerts.count == 1)
        #expect(a.id == "BSA_187874" && a.cause == .medicalEmergency && a.effect == .significantDelays && a.severity == .unknown)
        #expect(a.activePeriods.isEmpty && a.isActive(at: Instant(epochSeconds: 0)))
        #expect(a.informedEntities == [Alert.InformedEntity(agencyID: "BART")])
        #expect(a.header.bestTranslation(for: ["en"])?.language == "en-US")
        #expect(a.header.best(for: ["id"])?.hasPrefix("There is a major delay at Montgomery St. on the San Francisco Line") == true)
        #expect(a.description.isEmpty)
        #expect(a.url.best(for: ["en-US"]) == "http://www.bart.gov/schedules/advisories")
        #expect(a.isHighPriority)

        let tt = try AlertCaptures.bart.get()
        // Bound to the BART feed, the agency becomes canonical and matches it.
        let book = AlertBook(alerts: try AlertDecoding.alerts(from: try AlertCaptures.bartBytes.get(), idPrefix: "bart-2019-02:"), timetable: tt)
        #expect((book.report.matchedAgencies, book.report.unknownAgencies, book.report.unmatchedEntities) == (1, 0, 0))
        let at = Instant(epochSeconds: 1_565_199_960)
        #expect(book.stationAlerts(for: try #require(tt.stop(id: "MONT")), at: at).map(\.id) == ["BSA_187874"])
        #expect(book.serviceAlerts(route: "bart-2019-02:1", trip: nil, at: at).map(\.id) == ["BSA_187874"])
        #expect(book.serviceAlerts(route: nil, trip: nil, at: at).map(\.id) == ["BSA_187874"])
        #expect(book.boardAlerts(for: try #require(tt.stop(id: "MONT")), routes: [], at: at).highPriority.map(\.id) == ["BSA_187874"])
    }

    // MARK: - Rules, with alerts built in code

    @Test("language: exact tag, then base language, then the untagged text, then the feed's first")
    func language() throws {
        let alerts = try roundTrip([
            alertEntity("a", header: [("Hello", "en"), ("Bonjour", "fr"), ("Hello, mate", "en-GB")]),
            alertEntity("b", header: [("Bonjour", "fr"), ("Hallo", nil)]),
            alertEntity("c", header: [("Howdy", "en-US"), ("Selamat", "id")]),
        ])
        let a = alerts[0].header, b = alerts[1].header, c = alerts[2].header
        #expect(a.best(for: ["fr"]) == "Bonjour")
        #expect(a.best(for: ["en-GB"]) == "Hello, mate")
        #expect(a.best(for: ["EN_gb"]) == "Hello, mate", "tags compare without case, _ read as -")
        #expect(a.best(for: ["en-US"]) == "Hello", "en for en-US")
        #expect(a.best(for: ["de", "fr", "en"]) == "Bonjour", "preferences in order")
        #expect(a.best(for: ["de"]) == "Hello", "no match: the feed's first")
        #expect(a.best(for: []) == "Hello")
        #expect(b.best(for: ["de"]) == "Hallo", "no match: the untagged (default-language) text")
        #expect(b.bestTranslation(for: ["de"])?.language == nil)
        #expect(c.best(for: ["en"]) == "Howdy", "en-US for en when there is no plain en")
        #expect(c.best(for: ["id-ID"]) == "Selamat")
        #expect(alerts[0].description.best(for: ["en"]) == nil && alerts[0].url.isEmpty)
        #expect(LocalizedText([.init(text: "", language: "en"), .init(text: "Hi", language: "en")]).translations.count == 1)
    }

    @Test("active periods: start only, end only, both, none; start inclusive, end exclusive; 0 means unset")
    func activePeriods() throws {
        let alerts = try roundTrip([
            alertEntity("start", periods: [(1000, nil)]),
            alertEntity("end", periods: [(nil, 2000)]),
            alertEntity("both", periods: [(1000, 2000), (5000, 6000)]),
            alertEntity("none"),
            alertEntity("zero", periods: [(0, 0)]),
        ])
        let byID = Dictionary(uniqueKeysWithValues: alerts.map { ($0.id, $0) })
        func active(_ id: String, _ t: Int64) -> Bool { byID[id]!.isActive(at: Instant(epochSeconds: t)) }
        #expect(byID["start"]!.activePeriods == [.init(start: Instant(epochSeconds: 1000), end: nil)])
        #expect(byID["end"]!.activePeriods == [.init(start: nil, end: Instant(epochSeconds: 2000))])
        #expect(!active("start", 999) && active("start", 1000) && active("start", 9_999_999_999))
        #expect(active("end", -5) && active("end", 1999) && !active("end", 2000))
        #expect(!active("both", 999) && active("both", 1000) && !active("both", 2000) && !active("both", 4999) && active("both", 5500) && !active("both", 6000))
        #expect(active("none", 0) && active("none", 9_999_999_999))
        #expect(byID["zero"]!.activePeriods == [.init(start: nil, end: nil)] && active("zero", 123))
        #expect(byID["both"]!.period(containing: Instant(epochSeconds: 5500))?.start == Instant(epochSeconds: 5000))
    }

    @Test("a stop's alert shows at its station; a station's at its platforms; not at a sibling platform")
    func stopAlertAtStation() throws {
        let tt = try inlineTimetable()
        let book = AlertBook(alerts: try roundTrip([
            alertEntity("platform1", entities: [selector(stop: "P1")]),
            alertEntity("station", entities: [selector(stop: "STN")]),
            alertEntity("elm", entities: [selector(route: "R1", stop: "S2")]),
        ]), timetable: tt)
        func ids(_ stop: String) throws -> Set<String> {
            Set(book.stationAlerts(for: try #require(tt.stop(id: stop)), at: Instant(epochSeconds: 0)).map(\.id))
        }
        #expect(try ids("STN") == ["platform1", "station"])
        #expect(try ids("P1") == ["platform1", "station"])
        #expect(try ids("P2") == ["station"])
        #expect(try ids("S2") == ["elm"], "route R1 at S2 still informs S2")
        #expect(try ids("S3") == [])
    }

    @Test("severity orders severe > warning > info > unknown, then earliest start; the high-priority rule")
    func severityOrdering() throws {
        #expect(Alert.Severity.allCases.sorted() == [.unknown, .info, .warning, .severe])
        let tt = try inlineTimetable()
        let book = AlertBook(alerts: try roundTrip([
            alertEntity("unknown", periods: [(100, nil)], entities: [selector(stop: "P1")]),
            alertEntity("info", severity: .info, periods: [(100, nil)], entities: [selector(stop: "P1")]),
            alertEntity("warning-late", severity: .warning, periods: [(300, nil)], entities: [selector(stop: "P1")]),
            alertEntity("severe", severity: .severe, periods: [(500, nil)], entities: [selector(stop: "P1")]),
            alertEntity("warning-early", severity: .warning, periods: [(200, nil)], entities: [selector(stop: "P1")]),
            alertEntity("warning-open", severity: .warning, entities: [selector(stop: "P1")]),
        ]), timetable: tt)
        let list = book.stationAlerts(for: try #require(tt.stop(id: "P1")), at: Instant(epochSeconds: 1000))
        #expect(list.map(\.id) == ["severe", "warning-open", "warning-early", "warning-late", "info", "unknown"])
        #expect(book.all(at: Instant(epochSeconds: 250)).map(\.id) == ["warning-open", "warning-early", "info", "unknown"])

        func alert(_ severity: Alert.Severity, _ effect: Alert.Effect) -> Alert { Alert(id: "x", effect: effect, severity: severity) }
        #expect(alert(.severe, .other).isHighPriority)
        #expect(alert(.unknown, .detour).isHighPriority && alert(.warning, .noService).isHighPriority)
        #expect(alert(.unknown, .stopMoved).isHighPriority && alert(.unknown, .significantDelays).isHighPriority)
        #expect(!alert(.info, .noService).isHighPriority, "an explicit info is never high priority")
        #expect(!alert(.warning, .modifiedService).isHighPriority && !alert(.unknown, .other).isHighPriority)
        #expect(!alert(.unknown, .accessibilityIssue).isHighPriority)
    }

    @Test("unknown stops, routes, trips and agencies are counted, never fatal")
    func unknownCounted() throws {
        let tt = try inlineTimetable()
        let book = AlertBook(alerts: try roundTrip([
            alertEntity("half", entities: [selector(stop: "NOPE"), selector(stop: "P1")]),
            alertEntity("ghost", entities: [selector(stop: "NOPE2")]),
            alertEntity("ghost-route", entities: [selector(route: "R9"), selector(trip: "T9"), selector(agency: "Z")]),
        ]), timetable: tt)
        let r = book.report
        #expect((r.matchedStops, r.unknownStops, r.unknownStopExamples) == (1, 2, ["test:NOPE", "test:NOPE2"]))
        #expect((r.unknownRoutes, r.unknownTrips, r.unknownAgencies) == (1, 1, 1))
        #expect(r.unmatchedEntities == 5 && r.informedEntities == 6)
        #expect(Set(book.all(at: Instant(epochSeconds: 0)).map(\.id)) == ["half", "ghost", "ghost-route"])
        #expect(book.stationAlerts(for: try #require(tt.stop(id: "P1")), at: Instant(epochSeconds: 0)).map(\.id) == ["half"])
        // An unknown trip is still found by its ID (a trip a realtime feed added).
        #expect(book.serviceAlerts(route: nil, trip: "test:T9", at: Instant(epochSeconds: 0)).map(\.id) == ["ghost-route"])
    }

    @Test("agency-wide and route-type alerts reach the stops their routes serve")
    func networkWide() throws {
        let tt = try inlineTimetable()
        let book = AlertBook(alerts: try roundTrip([
            alertEntity("agency", entities: [selector(agency: "A")]),
            alertEntity("subway", entities: [selector(routeType: 1)]),
        ]), timetable: tt)
        func ids(_ stop: String) throws -> Set<String> {
            Set(book.stationAlerts(for: try #require(tt.stop(id: stop)), at: Instant(epochSeconds: 0)).map(\.id))
        }
        #expect(try ids("P1") == ["agency"])
        #expect(try ids("P2") == ["agency", "subway"])
        #expect(try ids("S2") == ["agency", "subway"])
        #expect(try ids("STN") == ["agency", "subway"], "a station is served through its platforms")
        #expect(try ids("S3") == [], "no route calls at S3")
        #expect(Set(book.serviceAlerts(route: "test:R1", trip: nil, at: nil).map(\.id)) == ["agency"])
        #expect(Set(book.serviceAlerts(route: "test:R2", trip: nil, at: nil).map(\.id)) == ["agency", "subway"])
        #expect(book.report.unmatchedEntities == 0 && book.report.matchedAgencies == 1)
    }

    @Test("service alerts: route, direction, trip; a board leaves out route alerts narrowed to other stops")
    func serviceAlerts() throws {
        let tt = try inlineTimetable()
        let book = AlertBook(alerts: try roundTrip([
            alertEntity("r1", effect: .detour, entities: [selector(route: "R1")]),
            alertEntity("r1-dir1", entities: [selector(route: "R1", direction: 1)]),
            alertEntity("t1", effect: .noService, entities: [selector(trip: "T1")]),
            alertEntity("r1-at-s2", entities: [selector(route: "R1", stop: "S2")]),
        ]), timetable: tt)
        func ids(route: String? = nil, trip: String? = nil) -> Set<String> {
            Set(book.serviceAlerts(route: route, trip: trip, at: nil).map(\.id))
        }
        #expect(ids(route: "test:R1") == ["r1", "r1-dir1", "t1", "r1-at-s2"])
        #expect(ids(trip: "test:T1") == ["r1", "t1", "r1-at-s2"], "T1 runs direction 0")
        #expect(ids(trip: "test:T2") == ["r1", "r1-dir1", "r1-at-s2"])
        #expect(ids(route: "test:R2").isEmpty && ids().isEmpty)
        let board = book.boardAlerts(for: try #require(tt.stop(id: "P1")), routes: ["test:R1"], trips: ["test:T1"], at: Instant(epochSeconds: 0))
        #expect(board.highPriority.map(\.id) == ["r1", "t1"])
        #expect(board.other.map(\.id) == ["r1-dir1"])
    }

    @Test("IDs take the static feed's prefix; deleted entities and entities without an alert are skipped")
    func prefixAndDeleted() throws {
        var deleted = alertEntity("gone", entities: [selector(stop: "P1")])
        deleted.isDeleted = true
        var vehicle = TransitRealtime_FeedEntity()
        vehicle.id = "v1"
        vehicle.vehicle = TransitRealtime_VehiclePosition()
        let alerts = try roundTrip([
            alertEntity("kept", entities: [selector(agency: "A", route: "R1", stop: "P1"), selector(trip: "T1")]),
            deleted, vehicle,
        ], idPrefix: "north:")
        #expect(alerts.map(\.id) == ["kept"])
        #expect(alerts[0].informedEntities == [
            Alert.InformedEntity(agencyID: "north:A", routeID: "north:R1", stopID: "north:P1"),
            Alert.InformedEntity(tripID: "north:T1"),
        ])
        // With two static feeds loaded, the prefixed IDs find the right feed's stop.
        let both = try GTFSImporter.load([InlineFeed.source(name: "north", inlineFiles), InlineFeed.source(name: "south", inlineFiles)]).timetable
        let book = AlertBook(alerts: alerts, timetable: both)
        #expect(book.stationAlerts(for: try #require(both.stop(id: "north:P1")), at: nil).map(\.id) == ["kept"])
        #expect(book.stationAlerts(for: try #require(both.stop(id: "south:P1")), at: nil).isEmpty)
    }

    @Test("garbage, empty and truncated bytes are undecodable source errors")
    func undecodable() throws {
        let bart = try AlertCaptures.bartBytes.get()
        var noHeader = TransitRealtime_FeedMessage()
        noHeader.entity = [alertEntity("x")]
        let headerless: Data = try noHeader.serializedBytes(partial: true)
        for (name, bytes) in [("empty", Data()), ("garbage", Data([0xFF, 0xFF, 0xFF, 0xFF, 0x0F])), ("text", Data("<html>no</html>".utf8)),
                              ("truncated", bart.prefix(bart.count - 40)), ("headerless", headerless)] {
            #expect(throws: SourceError.self, "\(name)") { _ = try AlertDecoding.alerts(from: bytes, source: name) }
            do {
                _ = try AlertDecoding.alerts(from: bytes, source: name)
            } catch {
                #expect(error.code == .undecodable, "\(name)")
                #expect(error.message.contains(name), "\(name): the message names the source")
            }
        }
    }
}
