import Foundation
import GTFSRealtime
import OnwardCore
import Timetable
import TransitSources

extension GTFSNetworkSource {
    /// A departures or arrivals board from the timetable, with the realtime overlay when a
    /// realtime source is configured, and the alerts that apply within the board's time.
    public func board(_ request: SourceBoardRequest) async throws(SourceError) -> SourceBoard {
        let state = store.current
        let tt = state.timetable
        let stop = try stop(request.stopID, in: tt)
        let via = try request.via.map { id throws(SourceError) in try self.stop(id, in: tt) }
        let zone = TimeZone.named(tt.timeZoneIdentifier(of: stop))
        let now = request.now
        let from = request.at ?? now
        let query = BoardRequest(kind: request.kind == .arrivals ? .arrivals : .departures, stop: stop, from: from,
                                 window: request.windowMinutes.map { $0 * 60 }, limit: request.limit, via: via)
        var entries = state.hasRealtime && !request.timetableOnly ? tt.liveBoard(query, overlay: state.realtime.overlay, now: now) : tt.board(query)
        state.addUsualDelays(to: &entries)
        var board = SourceBoard(place: tt.place(stop), via: via.map { tt.place($0) }, kind: request.kind, entries: entries,
                                live: state.live(now: now))
        if let book = state.realtime.alertBook {
            // Alerts belong to the board's time: from its moment to its last row (or the end of its window).
            let windowEnd = request.windowMinutes.map { from.adding(seconds: Int64($0) * 60) } ?? from
            let range = from...max(windowEnd, entries.map { $0.expected ?? $0.scheduled }.max() ?? from)
            let a = book.boardAlerts(for: stop, routes: entries.map(\.routeID), trips: entries.map(\.tripID), during: range)
            board.alerts = a
            board.entryAlertIDs = entries.map { e in book.serviceAlerts(route: e.routeID, trip: e.tripID, during: range).map(\.id) }
        }
        // An empty board outside the calendar says so, rather than looking like a quiet day.
        if entries.isEmpty { board.emptyReason = Self.outsideCalendar(from, in: zone, tt) }
        return board
    }

    /// "The timetable ends on …" when `moment` falls on a day outside the timetable's calendar, else nil.
    static func outsideCalendar(_ moment: Instant, in zone: TimeZone, _ tt: Timetable) -> String? {
        guard let calendar = tt.calendarRange else { return nil }
        let day = LocalTime(moment, in: zone).date
        if day > calendar.upperBound { return "The timetable ends on \(calendar.upperBound.isoString): there is no service data after that date." }
        if day < calendar.lowerBound { return "The timetable starts on \(calendar.lowerBound.isoString): there is no service data before that date." }
        return nil
    }

    /// One run of a trip: on the date asked, else today where it runs, else the next day it runs.
    public func service(_ request: SourceServiceRequest) async throws(SourceError) -> SourceService {
        let state = store.current
        let tt = state.timetable
        let trip = try trip(request.serviceID, in: state)
        let zone = tt.tripTimeZoneIdentifier(trip)
        let today = LocalTime(request.now, in: TimeZone.named(zone)).date
        let day = request.date ?? (tt.runs(trip, on: today) ? today : tt.serviceDates(of: trip).first { $0 > today } ?? today)
        let startTime = request.startTime.map { Int32($0) }
        var details: ServiceDetails
        do {
            details = state.hasRealtime
                ? try tt.liveService(trip, on: day, startTime: startTime, overlay: state.realtime.overlay, now: request.now)
                : try tt.service(trip, on: day, startTime: startTime)
        } catch {
            switch error {
            case .unknownTrip(let id): throw missing(id, "trip")
            case .skippedAtImport(let id): throw SourceError(.notFound, "Trip '\(id)' was left out of the timetable at import.")
            case .notRunning(let id, let d, let runsOn):
                let dates = runsOn.prefix(5).map(\.isoString).joined(separator: ", ")
                throw SourceError(.notRunning, "Trip '\(id)' does not run on \(d.isoString)\(dates.isEmpty ? "" : "; it runs on \(dates)").")
            }
        }
        details.shape = shape(of: trip, in: state)
        state.addUsualDelays(to: &details)
        let alerts = state.realtime.alertBook.map { $0.serviceAlerts(route: details.routeID, trip: details.tripID, at: request.now) }
        return SourceService(details: details, timeZone: zone, alerts: alerts, live: state.live(now: request.now))
    }

    /// Station alerts (a stop), service alerts (a route or a trip), or every alert, active at `now`.
    public func alerts(_ scope: AlertScope, now: Instant) async throws(SourceError) -> SourceAlerts {
        let state = store.current
        let tt = state.timetable
        var place: StopPlace?
        var zone = tt.agencies.first?.timeZone ?? "UTC"
        let select: (AlertBook, Instant?) -> [Alert]
        switch scope {
        case .all:
            select = { $0.all(at: $1) }
        case .stop(let id):
            let stop = try stop(id, in: tt)
            place = tt.place(stop)
            zone = tt.timeZoneIdentifier(of: stop)
            select = { $0.stationAlerts(for: stop, at: $1) }
        case .route(let id):
            // The alerts name routes by canonical ID.
            guard let r = tt.lookupRoute(id: id).found else { throw missing(id, "route") }
            let info = tt.routeInfo(r)
            zone = tt.agencies.first { $0.id == info.agencyID }?.timeZone ?? zone
            select = { $0.serviceAlerts(route: info.id, trip: nil, at: $1) }
        case .service(let id):
            let t = try trip(id, in: state)
            let canonical = tt.tripIdentifier(t)
            zone = tt.tripTimeZoneIdentifier(t)
            select = { $0.serviceAlerts(route: nil, trip: canonical, at: $1) }
        }
        guard let book = state.realtime.alertBook else { return SourceAlerts(place: place, alerts: [], total: 0, timeZone: zone) }
        let active = select(book, now)
        return SourceAlerts(place: place, alerts: active, inactiveCount: select(book, nil).count - active.count,
                            total: book.alerts.count, timeZone: zone, notes: book.report.unmatchedNotes)
    }
}

extension AlertMatchReport {
    /// "Not in the timetable: 2 of 9 stops (…)": what a feed's alerts name that the timetable lacks.
    var unmatchedNotes: [String] {
        var unknown: [String] = []
        if unknownStops > 0 { unknown.append("\(unknownStops) of \(matchedStops + unknownStops) stops (\(unknownStopExamples.joined(separator: ", ")))") }
        if unknownRoutes > 0 { unknown.append("\(unknownRoutes) of \(matchedRoutes + unknownRoutes) routes (\(unknownRouteExamples.joined(separator: ", ")))") }
        if unknownTrips > 0 { unknown.append("\(unknownTrips) of \(matchedTrips + unknownTrips) trips (\(unknownTripExamples.joined(separator: ", ")))") }
        if unknownAgencies > 0 { unknown.append("\(unknownAgencies) agencies (\(unknownAgencyExamples.joined(separator: ", ")))") }
        return unknown.isEmpty ? [] : ["Not in the timetable: " + unknown.joined(separator: "; ") + "."]
    }
}
