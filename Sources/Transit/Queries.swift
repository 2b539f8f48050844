import API
import DataSources
import Foundation
import GTFSRealtime
import OnwardCore
import Timetable

/// Answers the API's questions from one `NetworkState`, in the API's types.
/// The same answers serve the JSON API, the pages and live updates.
public struct Queries: Sendable {
    public let state: NetworkState
    /// The moment "now" for live statuses (departed, stale).
    public let now: Instant

    public init(_ state: NetworkState, now: Instant = .now()) {
        self.state = state
        self.now = now
    }

    var timetable: Timetable { state.timetable }

    /// Caps that keep one request cheap.
    public static let maxWindowMinutes = 1440
    public static let maxLimit = 100
    public static let defaultLimit = 15

    public struct BoardQuery: Sendable, Hashable {
        public var stopID: String
        public var arrivals = false
        /// Only services that later call here (departures), or earlier called here (arrivals).
        public var via: String?
        public var at: Instant?
        public var windowMinutes: Int?
        public var limit: Int?
        public var languages: [String] = ["en"]

        public init(stopID: String, arrivals: Bool = false, via: String? = nil, at: Instant? = nil, windowMinutes: Int? = nil,
                    limit: Int? = nil, languages: [String] = ["en"]) {
            self.stopID = stopID; self.arrivals = arrivals; self.via = via; self.at = at
            self.windowMinutes = windowMinutes; self.limit = limit; self.languages = languages
        }
    }

    public func stop(_ id: String) throws(QueryError) -> StopIndex {
        switch timetable.lookupStop(id: id) {
        case .found(let s): return s
        case .ambiguous(let ids):
            throw QueryError(.stopNotFound, "Several feeds have a stop '\(id)': \(ids.joined(separator: ", ")). Give one of these IDs.")
        case .notFound:
            throw QueryError(.stopNotFound, "No stop or station has the ID '\(id)'. Search for stops at /api/v1/stops?q=NAME.")
        }
    }

    /// A trip by ID (canonical, or unprefixed when one feed has it).
    public func trip(_ id: String) throws(QueryError) -> TripIndex {
        switch timetable.lookupTrip(id: id) {
        case .found(let t): return t
        case .ambiguous(let ids):
            throw QueryError(.tripNotFound, "Several feeds have a trip '\(id)': \(ids.joined(separator: ", ")). Give one of these IDs.")
        case .notFound:
            throw QueryError(.tripNotFound, "No trip has the ID '\(id)'. Trip IDs are on each board row.")
        }
    }

    /// The limits every board obeys, whatever its source.
    static func validateLimits(_ q: BoardQuery) throws(QueryError) {
        if let w = q.windowMinutes, !(1...Queries.maxWindowMinutes).contains(w) {
            throw QueryError(.invalidParameter, "window must be between 1 and \(Queries.maxWindowMinutes) minutes", parameter: "window")
        }
        if let l = q.limit, !(1...Queries.maxLimit).contains(l) {
            throw QueryError(.invalidParameter, "limit must be between 1 and \(Queries.maxLimit)", parameter: "limit")
        }
    }

    public func board(_ q: BoardQuery) throws(QueryError) -> BoardDTO {
        try Queries.validateLimits(q)
        let stop = try stop(q.stopID)
        let via = try q.via.map { id throws(QueryError) in try self.stop(id) }
        let zone = TimeZone(identifier: timetable.timeZoneIdentifier(of: stop)) ?? .gmt
        let from = q.at ?? now
        let request = BoardRequest(kind: q.arrivals ? .arrivals : .departures, stop: stop, from: from,
                                   window: q.windowMinutes.map { $0 * 60 },
                                   // Both may be given: at most `limit` rows within the window.
                                   limit: q.windowMinutes == nil ? (q.limit ?? Queries.defaultLimit) : q.limit, via: via)
        let entries = state.hasRealtime ? timetable.liveBoard(request, overlay: state.realtime.overlay, now: now) : timetable.board(request)
        let book = state.realtime.alertBook
        // Alerts belong to the board's time: from its moment to its last row (or the end of its window).
        let windowEnd = q.windowMinutes.map { from.adding(seconds: Int64($0) * 60) } ?? from
        let boardRange = from...max(windowEnd, entries.map { $0.expected ?? $0.scheduled }.max() ?? from)
        let alerts = book.map { b in
            let a = b.boardAlerts(for: stop, routes: entries.map(\.routeID), trips: entries.map(\.tripID), during: boardRange)
            return BoardAlertsDTO(highPriority: a.highPriority.map { AlertDTO($0, languages: q.languages, timeZone: zone) },
                                  other: a.other.map { AlertDTO($0, languages: q.languages, timeZone: zone) })
        }
        let entryAlerts = book.map { b in entries.map { e in b.serviceAlerts(route: e.routeID, trip: e.tripID, during: boardRange).map(\.id) } }
        var dto = BoardDTO(stop: timetable.place(stop), via: via.map { timetable.place($0) }, entries: entries, arrivals: q.arrivals,
                           live: live, alerts: alerts, entryAlerts: entryAlerts)
        // An empty board outside the calendar says so, rather than looking like a quiet day.
        if entries.isEmpty, let range = timetable.calendarRange {
            let day = LocalTime(from, in: zone).date
            if day > range.upperBound {
                dto.emptyReason = "The timetable ends on \(range.upperBound.isoString): there is no service data after that date."
            } else if day < range.lowerBound {
                dto.emptyReason = "The timetable starts on \(range.lowerBound.isoString): there is no service data before that date."
            }
        }
        return dto
    }

    /// One run of a trip on a service date (default: today where it runs, else the next day it runs).
    public func service(tripID: String, date: ServiceDate?, languages: [String] = ["en"]) throws(QueryError) -> ServiceDTO {
        let trip = try trip(tripID)
        let zone = TimeZone(identifier: timetable.tripTimeZoneIdentifier(trip)) ?? .gmt
        let today = LocalTime(now, in: zone).date
        let day = date ?? (timetable.runs(trip, on: today) ? today : timetable.serviceDates(of: trip).first { $0 > today } ?? today)
        let details: ServiceDetails
        do {
            details = state.hasRealtime
                ? try timetable.liveService(trip, on: day, overlay: state.realtime.overlay, now: now)
                : try timetable.service(trip, on: day)
        } catch {
            switch error {
            case .unknownTrip(let id): throw QueryError(.tripNotFound, "No trip has the ID '\(id)'.")
            case .skippedAtImport(let id): throw QueryError(.tripNotFound, "Trip '\(id)' was left out of the timetable at import.")
            case .notRunning(let id, let d, let runsOn):
                let dates = runsOn.prefix(5).map(\.isoString).joined(separator: ", ")
                throw QueryError(.notRunning, "Trip '\(id)' does not run on \(d.isoString)\(dates.isEmpty ? "" : "; it runs on \(dates)").")
            }
        }
        let alerts = state.realtime.alertBook.map { b in
            b.serviceAlerts(route: details.routeID, trip: details.tripID, at: now).map { AlertDTO($0, languages: languages, timeZone: zone) }
        }
        return ServiceDTO(details, live: live, alerts: alerts)
    }

    public func searchStops(_ text: String, limit: Int = 10) throws(QueryError) -> StopsDTO {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw QueryError(.invalidParameter, "q must not be empty", parameter: "q") }
        guard text.unicodeScalars.count <= 100 else { throw QueryError(.invalidParameter, "q must be at most 100 characters", parameter: "q") }
        return StopsDTO(timetable.searchStops(text, limit: min(max(limit, 1), Queries.maxLimit)))
    }

    public func nearbyStops(latitude: Double, longitude: Double, radius: Double = 800, limit: Int = 10) throws(QueryError) -> StopsDTO {
        guard (-90...90).contains(latitude) else { throw QueryError(.invalidParameter, "lat must be between -90 and 90", parameter: "lat") }
        guard (-180...180).contains(longitude) else { throw QueryError(.invalidParameter, "lon must be between -180 and 180", parameter: "lon") }
        guard radius >= 1 && radius <= 5_000 else { throw QueryError(.invalidParameter, "radius must be between 1 and 5000 metres", parameter: "radius") }
        return StopsDTO(timetable.nearbyStops(latitude: latitude, longitude: longitude, radius: radius, limit: min(max(limit, 1), Queries.maxLimit)))
    }

    /// Station alerts (with a stop), service alerts (with a route), or every alert, active now.
    public func alerts(stopID: String?, routeID: String?, languages: [String] = ["en"]) throws(QueryError) -> AlertsDTO {
        let stop = try stopID.map { id throws(QueryError) in try self.stop(id) }
        // The alerts name routes by canonical ID, so an unprefixed one is made canonical first.
        var routeID = routeID
        if let id = routeID {
            switch timetable.lookupRoute(id: id) {
            case .found(let r): routeID = timetable.routeInfo(r).id
            case .ambiguous(let ids):
                throw QueryError(.invalidParameter, "Several feeds have a route '\(id)': \(ids.joined(separator: ", ")).", parameter: "route")
            case .notFound:
                throw QueryError(.routeNotFound, "No route has the ID '\(id)'.")
            }
        }
        let zone = stop.map { TimeZone(identifier: timetable.timeZoneIdentifier(of: $0)) ?? .gmt }
            ?? TimeZone(identifier: timetable.agencies.first?.timeZone ?? "UTC") ?? .gmt
        guard let book = state.realtime.alertBook else {
            return AlertsDTO(at: LocalTime(now, in: zone).iso8601, stop: stop.map { timetable.place($0) }, routeId: routeID,
                             alerts: [], inactiveCount: 0, totalInFeeds: 0)
        }
        let query: (Instant?) -> [Alert] = { at in
            if let stop { return book.stationAlerts(for: stop, at: at) }
            if let routeID { return book.serviceAlerts(route: routeID, trip: nil, at: at) }
            return book.all(at: at)
        }
        let active = query(now)
        return AlertsDTO(at: LocalTime(now, in: zone).iso8601, stop: stop.map { timetable.place($0) }, routeId: routeID,
                         alerts: active.map { AlertDTO($0, languages: languages, timeZone: zone) },
                         inactiveCount: query(nil).count - active.count, totalInFeeds: book.alerts.count)
    }

    /// Every vehicle the realtime data places, with its trip.
    public func vehicles() -> VehiclesDTO {
        let list = state.realtime.overlay.vehicles.sorted { ($0.key.trip, $0.key.serviceDay, $0.key.shift) < ($1.key.trip, $1.key.serviceDay, $1.key.shift) }
        return VehiclesDTO(live: live, vehicles: list.map { key, info in
            let trip = TripIndex(raw: key.trip)
            let route = timetable.routeInfo(timetable.route(of: trip))
            return VehiclesDTO.Item(tripId: timetable.tripIdentifier(trip), routeId: route.id, routeShortName: route.shortName,
                                    serviceDate: ServiceDate(dayNumber: key.serviceDay).isoString, vehicle: VehicleDTO(info))
        })
    }

    /// The live-data summary every answer carries, or nil when no realtime source is configured.
    public var live: LiveDTO? {
        guard state.hasRealtime else { return nil }
        let overlay = state.realtime.overlay
        return LiveDTO(simulated: state.simulated, updatedAt: overlay.tripUpdatesTimestamp ?? overlay.vehiclesTimestamp,
                       stale: overlay.isStale(now: now, maxAge: state.maxAge),
                       unavailable: state.sources.values.sorted { $0.name < $1.name }.compactMap { s in
                           s.consecutiveFailures > 0 ? "\(s.name): \(s.lastError?.message ?? "failing")" : nil
                       })
    }
}
