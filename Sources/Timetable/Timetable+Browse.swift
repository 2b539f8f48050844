import OnwardCore

/// One direction of a route as browsing shows it: its headsign and the stops of the
/// pattern most of its trips follow.
public struct RouteDirectionInfo: Sendable, Hashable {
    /// The GTFS direction_id ("0", "1"), or "all" when the feed gives none.
    public var id: String
    public var headsign: String
    public var stops: [StopIndex]
    /// A trip that follows the pattern (for its shape).
    public var trip: TripIndex
}

extension Timetable {
    /// The directions of a route, in direction_id order. A route's trips may follow several
    /// patterns (short workings, branches): the one most trips follow stands for the direction,
    /// the longest of those when several tie. One pass over the trips.
    public func directions(of route: RouteIndex) -> [RouteDirectionInfo] {
        // direction → pattern → (trips, a trip on it)
        var counts: [String: [UInt32: (trips: Int, trip: UInt32)]] = [:]
        for t in 0..<tripRoute.count where tripRoute[t] == route.raw {
            let d = tripDirection[t] <= 1 ? String(tripDirection[t]) : "all"
            counts[d, default: [:]][tripPattern[t], default: (0, UInt32(t))].trips += 1
        }
        return counts.keys.sorted().compactMap { d in
            let length = { (p: UInt32) in Int(self.patternStart[Int(p) + 1] - self.patternStart[Int(p)]) }
            guard let (pattern, best) = counts[d]?.max(by: { ($0.value.trips, length($0.key)) < ($1.value.trips, length($1.key)) }) else { return nil }
            let stops = patternStop[Int(patternStart[Int(pattern)])..<Int(patternStart[Int(pattern) + 1])].map(StopIndex.init)
            return RouteDirectionInfo(id: d, headsign: headsign(trip: best.trip, position: 0), stops: stops, trip: TripIndex(raw: best.trip))
        }
    }
}
