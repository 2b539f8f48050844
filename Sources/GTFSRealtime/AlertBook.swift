import Foundation
import OnwardCore
import Timetable

/// How an alert feed's informed entities matched the static timetable. IDs are
/// counted once each (a stop named by ten alerts counts once). Nothing here is
/// fatal: an alert about an unknown stop is kept and still listed by `all(at:)`.
public struct AlertMatchReport: Sendable, Hashable, Codable {
    public var alerts = 0
    public var informedEntities = 0
    public var matchedStops = 0
    public var unknownStops = 0
    public var matchedRoutes = 0
    public var unknownRoutes = 0
    public var matchedTrips = 0
    public var unknownTrips = 0
    public var matchedAgencies = 0
    public var unknownAgencies = 0
    /// Informed entities that reach no stop, route, trip or agency of the timetable,
    /// so no board or service shows their alert because of them.
    public var unmatchedEntities = 0
    /// A few of the unknown IDs, sorted, for messages.
    public var unknownStopExamples: [String] = []
    public var unknownRouteExamples: [String] = []
    public var unknownTripExamples: [String] = []
    public var unknownAgencyExamples: [String] = []

    public init() {}
}

/// An immutable index of alerts resolved against one `Timetable`. Build a new one
/// whenever the alerts or the timetable change; it is cheap (one pass over the
/// informed entities).
///
/// Which alerts a query returns (every list is filtered to alerts active at the
/// instant asked for, then ordered by `Alert.mostSevereFirst`):
/// - **Station alerts** for a stop: alerts naming the stop, its station, or (for a
///   station) any of its platforms and their boarding areas — whatever else the
///   informed entity narrows it to ("route 7 at this stop" shows here too). Plus
///   network-wide alerts: an entity with only an agency (and nothing else) reaches
///   every stop served by a route of that agency; one with a route type (and at most
///   an agency) reaches every stop served by a route of that type. "Served" means
///   the timetable has a scheduled call there (on the stop or, for a station, on its
///   platforms); an unused stop gets no network-wide alerts.
/// - **Service alerts** for a route: entities naming the route (whole, in one
///   direction, or at some stops), trips of the route, its agency alone, or its
///   route type. For a trip: entities naming the trip; its route, unless they name
///   the other direction; its agency alone; its route type. A trip descriptor's
///   start date and time are not used to narrow further: an alert about one run
///   shows on every run of that trip.
///
/// A class, not a struct: it holds the timetable (dozens of arrays), and every
/// copy of a struct retained each of them; boards read it once per row.
public final class AlertBook: Sendable {
    /// Every alert given, in feed order, active or not.
    public let alerts: [Alert]
    public let report: AlertMatchReport

    private let timetable: Timetable
    private let byStop: [UInt32: [Int]]
    private let byRoute: [String: [RouteMention]]
    private let byTrip: [String: [Int]]
    /// Trip-level alerts, gathered by the trip's route, for a route's service view.
    private let byRouteTrips: [String: [Int]]
    private let byAgency: [String: [Int]]
    private let byRouteType: [RouteTypeMention]
    private let routeByID: [String: RouteIndex]

    private struct RouteMention: Sendable {
        var alert: Int
        var direction: Int?
        /// Narrowed to some stops: shown on those stops' boards, not on every board of the route.
        var atStops: Bool
    }

    private struct RouteTypeMention: Sendable {
        var alert: Int
        var type: Int
        var agency: String?
    }

    public init(alerts: [Alert], timetable: Timetable) {
        self.alerts = alerts
        self.timetable = timetable
        var routes: [String: RouteIndex] = [:]
        for index in timetable.allRoutes { routes[timetable.routeInfo(index).id] = index }
        let agencies = timetable.agencies
        let agencyIDs = Set(agencies.map(\.id))
        let routeTypes = Set(timetable.allRoutes.map { timetable.routeInfo($0).type })

        var byStop: [UInt32: [Int]] = [:], byRoute: [String: [RouteMention]] = [:], byTrip: [String: [Int]] = [:]
        var byRouteTrips: [String: [Int]] = [:], byAgency: [String: [Int]] = [:], byRouteType: [RouteTypeMention] = []
        var stops = (known: Set<String>(), unknown: Set<String>()), routeIDs = stops, trips = stops, agencyNames = stops
        var report = AlertMatchReport()
        report.alerts = alerts.count

        /// An agency ID as the timetable spells it. A feed whose agency.txt has no
        /// agency_id (allowed with one agency) cannot be checked, so its lone agency takes any ID.
        func agency(_ id: String) -> String? {
            if agencyIDs.contains(id) { return id }
            let feedless = agencies.filter { a in a.id.isEmpty || (a.id.hasSuffix(":") && id.hasPrefix(a.id)) }
            return feedless.count == 1 ? feedless[0].id : nil
        }

        for (n, alert) in alerts.enumerated() {
            for e in alert.informedEntities {
                report.informedEntities += 1
                var reached = false
                if let id = e.stopID {
                    if let s = timetable.stop(id: id) {
                        stops.known.insert(id); reached = true
                        if byStop[s.raw]?.last != n { byStop[s.raw, default: []].append(n) }
                    } else { stops.unknown.insert(id) }
                }
                if let a = e.agencyID {
                    if agency(a) != nil { agencyNames.known.insert(a) } else { agencyNames.unknown.insert(a) }
                }
                let routeID = e.routeID ?? e.tripRouteID
                if let r = e.routeID ?? (e.tripID == nil ? e.tripRouteID : nil) {
                    if routes[r] != nil { routeIDs.known.insert(r) } else { routeIDs.unknown.insert(r) }
                }
                if let t = e.tripID {
                    // Kept by ID even when unknown: a trip the realtime feed added can still carry an alert.
                    byTrip[t, default: []].append(n)
                    if let trip = timetable.trip(id: t) {
                        trips.known.insert(t); reached = true
                        byRouteTrips[timetable.routeInfo(timetable.route(of: trip)).id, default: []].append(n)
                    } else {
                        trips.unknown.insert(t)
                        if let routeID, routes[routeID] != nil { byRouteTrips[routeID, default: []].append(n); reached = true }
                    }
                } else if let routeID {
                    byRoute[routeID, default: []].append(RouteMention(alert: n, direction: e.directionID ?? e.tripDirectionID,
                                                                      atStops: e.stopID != nil))
                    if routes[routeID] != nil { reached = true }
                } else if let type = e.routeType, e.stopID == nil {
                    let a = e.agencyID.flatMap(agency)
                    byRouteType.append(RouteTypeMention(alert: n, type: type, agency: a))
                    if routeTypes.contains(type) && (e.agencyID == nil || a != nil) { reached = true }
                } else if let id = e.agencyID, e.stopID == nil, let a = agency(id) {
                    byAgency[a, default: []].append(n)
                    reached = true
                }
                if !reached { report.unmatchedEntities += 1 }
            }
        }
        report.matchedStops = stops.known.count; report.unknownStops = stops.unknown.count
        report.matchedRoutes = routeIDs.known.count; report.unknownRoutes = routeIDs.unknown.count
        report.matchedTrips = trips.known.count; report.unknownTrips = trips.unknown.count
        report.matchedAgencies = agencyNames.known.count; report.unknownAgencies = agencyNames.unknown.count
        report.unknownStopExamples = Array(stops.unknown.sorted().prefix(5))
        report.unknownRouteExamples = Array(routeIDs.unknown.sorted().prefix(5))
        report.unknownTripExamples = Array(trips.unknown.sorted().prefix(5))
        report.unknownAgencyExamples = Array(agencyNames.unknown.sorted().prefix(5))
        self.report = report
        self.byStop = byStop; self.byRoute = byRoute; self.byTrip = byTrip
        self.byRouteTrips = byRouteTrips; self.byAgency = byAgency; self.byRouteType = byRouteType
        self.routeByID = routes
    }

    /// Decodes a GTFS-Realtime message and indexes its alerts (see `AlertDecoding`).
    /// `idPrefix` as in `AlertDecoding`; nil: the timetable's first feed's.
    public convenience init(message: TransitRealtime_FeedMessage, idPrefix: String? = nil, timetable: Timetable) {
        self.init(alerts: AlertDecoding.alerts(from: message, idPrefix: idPrefix ?? timetable.defaultIDPrefix), timetable: timetable)
    }

    /// Every alert active at `instant` (nil: whatever their periods), most severe first.
    public func all(at instant: Instant?) -> [Alert] {
        ordered(Set(alerts.indices), at: instant)
    }

    /// How many alerts exist but are not active at `instant` (ended, or not started yet).
    public func inactiveCount(at instant: Instant) -> Int {
        alerts.count(where: { !$0.isActive(at: instant) })
    }

    /// Alerts for a stop or station (see the type's documentation for the rule), active at `instant`
    /// (nil: whatever their periods), most severe first.
    public func stationAlerts(for stop: StopIndex, at instant: Instant?) -> [Alert] {
        ordered(stationAlertIndices(for: stop), at: instant)
    }

    /// Alerts for a route or one trip (see the type's documentation), active at `instant`
    /// (nil: whatever their periods), most severe first.
    /// With a trip, the route is only used when the timetable does not know the trip.
    /// With neither, the network-wide ones (agency-wide and route-type alerts).
    public func serviceAlerts(route: String?, trip: String?, at instant: Instant?) -> [Alert] {
        ordered(serviceAlertIndices(route: route, trip: trip, wholeRouteOnly: false), during: instant.map { $0...$0 })
    }

    /// The service alerts active at any moment of `range` (a board's time window).
    public func serviceAlerts(route: String?, trip: String?, during range: ClosedRange<Instant>) -> [Alert] {
        ordered(serviceAlertIndices(route: route, trip: trip, wholeRouteOnly: false), during: range)
    }

    /// What a board at `stop` shows: its station alerts, plus the service alerts of the
    /// routes and trips it lists — except alerts narrowed to other stops of those
    /// routes, which belong to those stops' boards. Split by `Alert.isHighPriority`.
    public func boardAlerts(for stop: StopIndex, routes: [String], trips: [String] = [], at instant: Instant) -> BoardAlerts {
        boardAlerts(for: stop, routes: routes, trips: trips, during: instant...instant)
    }

    /// The same for a board's time window: an alert belongs to a board for another day
    /// when it is active then, not because it is active now.
    public func boardAlerts(for stop: StopIndex, routes: [String], trips: [String] = [], during range: ClosedRange<Instant>) -> BoardAlerts {
        var indices = stationAlertIndices(for: stop)
        for r in Set(routes) { indices.formUnion(serviceAlertIndices(route: r, trip: nil, wholeRouteOnly: true)) }
        for t in Set(trips) { indices.formUnion(byTrip[t] ?? []) }
        let list = ordered(indices, during: range)
        return BoardAlerts(highPriority: list.filter(\.isHighPriority), other: list.filter { !$0.isHighPriority })
    }

    // MARK: - Resolution

    private func stationAlertIndices(for stop: StopIndex) -> Set<Int> {
        // The stop, its station, and its children (a station's platforms) with theirs (boarding areas).
        var places = [stop]
        if let station = timetable.station(of: stop) { places.append(station) }
        var served = [stop]
        for child in timetable.children(of: stop) {
            places.append(child); served.append(child)
            places += timetable.children(of: child)
        }
        var result = Set<Int>()
        for p in places { result.formUnion(byStop[p.raw] ?? []) }
        guard !byAgency.isEmpty || !byRouteType.isEmpty else { return result }
        var agencies = Set<String>(), types = Set<Int>(), typed = Set<TypeKey>()
        for s in served {
            for r in timetable.routes(serving: s) {
                let info = timetable.routeInfo(r)
                agencies.insert(info.agencyID); types.insert(info.type); typed.insert(TypeKey(type: info.type, agency: info.agencyID))
            }
        }
        for a in agencies { result.formUnion(byAgency[a] ?? []) }
        for m in byRouteType where m.agency == nil ? types.contains(m.type) : typed.contains(TypeKey(type: m.type, agency: m.agency!)) {
            result.insert(m.alert)
        }
        return result
    }

    private struct TypeKey: Hashable { var type: Int; var agency: String }

    private func serviceAlertIndices(route: String?, trip: String?, wholeRouteOnly: Bool) -> Set<Int> {
        var result = Set<Int>()
        var routeID = route
        var direction: Int?
        if let trip {
            result.formUnion(byTrip[trip] ?? [])
            if let t = timetable.trip(id: trip) {
                routeID = timetable.routeInfo(timetable.route(of: t)).id
                direction = timetable.directionID(of: t)
            }
        }
        guard let routeID else {
            if trip == nil {
                for list in byAgency.values { result.formUnion(list) }
                for m in byRouteType { result.insert(m.alert) }
            }
            return result
        }
        for m in byRoute[routeID] ?? [] where !(wholeRouteOnly && m.atStops) {
            // A mention of one direction leaves out trips known to run the other way.
            if let d = m.direction, let direction, d != direction { continue }
            result.insert(m.alert)
        }
        if trip == nil && !wholeRouteOnly { result.formUnion(byRouteTrips[routeID] ?? []) }
        if let r = routeByID[routeID] {
            let info = timetable.routeInfo(r)
            result.formUnion(byAgency[info.agencyID] ?? [])
            for m in byRouteType where m.type == info.type && (m.agency == nil || m.agency == info.agencyID) { result.insert(m.alert) }
        }
        return result
    }

    private func ordered(_ indices: Set<Int>, at instant: Instant?) -> [Alert] {
        ordered(indices, during: instant.map { $0...$0 })
    }

    private func ordered(_ indices: Set<Int>, during range: ClosedRange<Instant>?) -> [Alert] {
        indices.map { alerts[$0] }.filter { a in range.map { a.isActive(during: $0) } ?? true }.sorted(by: Alert.mostSevereFirst)
    }
}
