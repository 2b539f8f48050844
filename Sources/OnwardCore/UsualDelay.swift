import Foundation

/// How late a route usually is at a stop in one hour on one kind of day, from the history of many days: what a board
/// shows ("usually 3–6 min late at this hour", "cancelled 1 in 12") and what the planner weighs a change against.
public struct UsualDelay: Hashable, Sendable, Codable {
    public var dayKind: DayKind
    public var hour: Int
    /// Calls seen running, calls seen cancelled or skipped, and on how many service dates.
    public var observed: Int
    public var cancelled: Int
    public var days: Int
    /// Departure delay in whole minutes: a fifth of departures were at most `departureLow` late, half `departureMedian`,
    /// four fifths `departureHigh` (negative: early). Nil when no departure time was given.
    public var departureLow: Int?
    public var departureMedian: Int?
    public var departureHigh: Int?
    /// Arrival delay in minutes, half and four fifths: what a change after this ride must allow for.
    public var arrivalMedian: Int?
    public var arrivalHigh: Int?

    /// Below these, a few odd days would speak for the route: nothing is shown and the planner does not weigh it.
    public static let minimumDays = 3
    public static let minimumCalls = 6

    public init(dayKind: DayKind, hour: Int, observed: Int, cancelled: Int, days: Int, departureLow: Int?, departureMedian: Int?,
                departureHigh: Int?, arrivalMedian: Int?, arrivalHigh: Int?) {
        self.dayKind = dayKind; self.hour = hour; self.observed = observed; self.cancelled = cancelled; self.days = days
        self.departureLow = departureLow; self.departureMedian = departureMedian; self.departureHigh = departureHigh
        self.arrivalMedian = arrivalMedian; self.arrivalHigh = arrivalHigh
    }

    /// The summary of aggregates of one kind of day and hour (of any routes and stops given: a route's history at all
    /// its stops reads the same way).
    public init(dayKind: DayKind, hour: Int, _ aggregates: some Sequence<DelayAggregate>) {
        var departures = DelayHistogram(), arrivals = DelayHistogram()
        var observed = 0, cancelled = 0
        var dates = Set<ServiceDate>()
        for a in aggregates {
            observed += a.observed; cancelled += a.cancelled
            departures.merge(a.departures); arrivals.merge(a.arrivals)
            dates.insert(a.serviceDate)
        }
        self.init(dayKind: dayKind, hour: hour, observed: observed, cancelled: cancelled, days: dates.count,
                  departureLow: departures.percentile(0.2), departureMedian: departures.percentile(0.5),
                  departureHigh: departures.percentile(0.8), arrivalMedian: arrivals.percentile(0.5), arrivalHigh: arrivals.percentile(0.8))
    }

    /// Whether there is history enough to show or weigh.
    public var isEnough: Bool { days >= Self.minimumDays && observed + cancelled >= Self.minimumCalls }

    /// One cancelled in how many runs (rounded), or nil when none was.
    public var oneCancelledIn: Int? {
        guard cancelled > 0 else { return nil }
        return max(1, Int((Double(observed + cancelled) / Double(cancelled)).rounded()))
    }

    /// What "usually" means in words: on time (within a minute either way for four fifths of departures), late by a
    /// range, up to some minutes late, or early.
    public enum Band: Hashable, Sendable {
        case onTime
        case late(from: Int, to: Int)
        case upTo(Int)
        case early(Int)
    }

    public var departureBand: Band? {
        guard let low = departureLow, let high = departureHigh else { return nil }
        if high <= 1 && low >= -1 { return .onTime }
        if high < -1 { return .early(-low) }
        if low >= 1 { return .late(from: low, to: high) }
        return .upTo(high)
    }

    /// The arrival delay, in seconds, that `fraction` of rides stay within (half: 0.5, the reliable rule: 0.8); nil when
    /// unknown. Never below zero: an early arrival does not give a change more time.
    public func arrivalAllowance(_ fraction: Double) -> Int? {
        guard let m = fraction > 0.5 ? arrivalHigh : arrivalMedian else { return nil }
        return max(m, 0) * 60
    }
}

/// Usual delays by route, stop, kind of day and hour, built from the aggregates of the last weeks: what boards, services
/// and the planner read, a dictionary look-up per row. A value, swapped whole when history is folded.
public struct DelayHistoryBook: Sendable {
    /// By stop, then route, then the kind of day and hour (`StopHistory.slot`): a board asks one stop about many rows, so it
    /// hashes the stop once (`atStop`) and each row only its route (hashing both per row was a tenth of a board).
    private var byStop: [String: StopHistory] = [:]
    public private(set) var count = 0

    public init() {}

    public static let empty = DelayHistoryBook()

    /// Only summaries with history enough are kept.
    public init(_ aggregates: [DelayAggregate]) {
        struct Key: Hashable { var route: String; var stop: String; var slot: Int }
        var groups: [Key: [DelayAggregate]] = [:]
        for a in aggregates {
            groups[Key(route: a.routeID, stop: a.stopID, slot: StopHistory.slot(a.hourOfWeek.dayKind, a.hourOfWeek.hour)), default: []].append(a)
        }
        for (key, group) in groups {
            let h = group[0].hourOfWeek
            let usual = UsualDelay(dayKind: h.dayKind, hour: h.hour, group)
            guard usual.isEnough else { continue }
            byStop[key.stop, default: StopHistory()].routes[key.route, default: [:]][key.slot] = usual
            count += 1
        }
    }

    public var isEmpty: Bool { count == 0 }

    /// How late `route` usually is at `stop` at the hour of `scheduled` on the stop's clock.
    public func usual(route: String, stop: String, at scheduled: Instant, zone: TimeZone) -> UsualDelay? {
        guard !isEmpty else { return nil }
        return usual(route: route, stop: stop, hour: HourOfWeek(scheduled, in: zone))
    }

    /// How late `route` usually is at `stop` in that hour of the week.
    public func usual(route: String, stop: String, hour h: HourOfWeek) -> UsualDelay? {
        byStop[stop]?.usual(route: route, hour: h)
    }

    /// One stop's history, for many look-ups there; nil when it has none.
    public func atStop(_ stop: String) -> StopHistory? { byStop[stop] }
}

/// How late each route usually is at one stop, by hour of the week.
public struct StopHistory: Sendable {
    var routes: [String: [Int: UsualDelay]] = [:]

    /// The kind of day and its hour as one number (0..<72).
    static func slot(_ kind: DayKind, _ hour: Int) -> Int {
        switch kind { case .weekday: hour; case .saturday: 24 + hour; case .sunday: 48 + hour }
    }

    public func usual(route: String, hour h: HourOfWeek) -> UsualDelay? {
        routes[route]?[Self.slot(h.dayKind, h.hour)]
    }
}
