import Foundation
import GTFS
import OnwardCore
import OnwardTesting
import Testing
import Timetable

/// Instants worked out by plain arithmetic, so expectations do not depend on the code under test.
enum Clock {
    /// Seconds since the epoch of a UTC wall-clock time, e.g. `utc("2025-01-07", "05:30")`.
    static func utc(_ date: String, _ hhmm: String) -> Instant {
        let day = Int64(ServiceDate(iso: date)!.dayNumber)
        let parts = hhmm.split(separator: ":").map { Int64($0)! }
        let seconds = parts[0] * 3600 + parts[1] * 60 + (parts.count > 2 ? parts[2] : 0)
        return Instant(epochSeconds: day * 86_400 + seconds)
    }

    /// A wall-clock time in a zone with a fixed offset on that date (hours east of UTC), e.g. EST = -5.
    static func local(_ date: String, _ hhmm: String, offsetHours: Int64) -> Instant {
        utc(date, hhmm).adding(seconds: -offsetHours * 3600)
    }

    /// New York in winter (EST, UTC-5): the default zone of inline feeds, for January dates.
    static func est(_ date: String, _ hhmm: String) -> Instant { local(date, hhmm, offsetHours: -5) }
}

extension Timetable {
    /// A board by stop ID; fails the test if the stop is unknown.
    func board(_ kind: BoardRequest.Kind = .departures, at stopID: String, from: Instant, window: Int? = nil,
               limit: Int? = nil, via: String? = nil,
               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [BoardEntry] {
        let stop = try #require(self.stop(id: stopID), "no stop \(stopID)", sourceLocation: sourceLocation)
        var viaIndex: StopIndex?
        if let via {
            let found: StopIndex = try #require(self.stop(id: via), "no stop \(via)", sourceLocation: sourceLocation)
            viaIndex = found
        }
        return board(BoardRequest(kind: kind, stop: stop, from: from, window: window, limit: limit, via: viaIndex))
    }
}

/// The minimal files most inline feeds share: one route, stops A–D.
enum Feed {
    static let stops = """
        stop_id,stop_name,stop_lat,stop_lon
        A,Alpha,40.0,-74.0
        B,Bravo,40.01,-74.0
        C,Charlie,40.02,-74.0
        D,Delta,40.03,-74.0
        """
    static let routes = """
        route_id,route_short_name,route_long_name,route_type
        R,1,Line One,3
        """
    /// Every day of January 2025.
    static let daily = """
        service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
        DAILY,1,1,1,1,1,1,1,20250101,20250131
        """
}
