import OnwardCore

/// How late a route usually is at a stop in one hour on one kind of day, from the delay history (`UsualDelay`): delays
/// in whole minutes (negative: early), a fifth, half and four fifths of the departures at most that late.
public struct UsualDelayDTO: Codable, Sendable, Equatable {
    /// weekday, saturday or sunday; the hour (0–23) on the stop's clock.
    public var dayKind: String
    public var hour: Int
    /// Calls seen running, and cancelled or skipped, on how many service dates.
    public var observed: Int
    public var cancelled: Int
    public var days: Int
    public var departureLowMinutes: Int?
    public var departureMedianMinutes: Int?
    public var departureHighMinutes: Int?
    public var arrivalMedianMinutes: Int?
    public var arrivalHighMinutes: Int?
    /// One cancelled in how many, when any was.
    public var cancelledOneIn: Int?
    /// Whether there is history enough to go by (a board shows only these).
    public var enough: Bool

    public init(_ u: UsualDelay) {
        dayKind = u.dayKind.rawValue; hour = u.hour; observed = u.observed; cancelled = u.cancelled; days = u.days
        departureLowMinutes = u.departureLow; departureMedianMinutes = u.departureMedian; departureHighMinutes = u.departureHigh
        arrivalMedianMinutes = u.arrivalMedian; arrivalHighMinutes = u.arrivalHigh
        cancelledOneIn = u.oneCancelledIn
        enough = u.isEnough
    }

    /// The summary back as a domain value (for the pages and the CLI, which word it).
    public var usual: UsualDelay {
        UsualDelay(dayKind: DayKind(rawValue: dayKind) ?? .weekday, hour: hour, observed: observed, cancelled: cancelled, days: days,
                   departureLow: departureLowMinutes, departureMedian: departureMedianMinutes, departureHigh: departureHighMinutes,
                   arrivalMedian: arrivalMedianMinutes, arrivalHigh: arrivalHighMinutes)
    }
}

/// The delay history of a stop (by route) or a route (all its stops together), by kind of day and hour.
public struct HistoryDTO: Codable, Sendable, Equatable {
    public struct Row: Codable, Sendable, Equatable {
        public var routeId: String?
        public var usual: UsualDelayDTO

        public init(routeId: String?, usual: UsualDelayDTO) { self.routeId = routeId; self.usual = usual }
    }

    /// `stop` or `route`, and its ID.
    public var kind: String
    public var id: String
    public var name: String?
    /// The service dates read, `YYYY-MM-DD`.
    public var from: String
    public var through: String
    public var rows: [Row]

    public init(kind: String, id: String, name: String?, from: String, through: String, rows: [Row]) {
        self.kind = kind; self.id = id; self.name = name; self.from = from; self.through = through; self.rows = rows
    }
}
