import OnwardCore

/// How current live data is: what every answer carries beside its rows.
public struct LiveInfo: Sendable, Hashable {
    /// Made-up demonstration data (`--simulate`), not a real feed.
    public var simulated: Bool
    /// When the upstream made the data (a feed's timestamp, Darwin's `generatedAt`).
    public var updatedAt: Instant?
    /// Older than the configured maximum age: shown as last known.
    public var stale: Bool
    /// Upstreams that could not be read, by name, with a safe reason.
    public var unavailable: [String]

    public init(simulated: Bool = false, updatedAt: Instant?, stale: Bool = false, unavailable: [String] = []) {
        self.simulated = simulated; self.updatedAt = updatedAt; self.stale = stale; self.unavailable = unavailable
    }
}

/// A source's board.
public struct SourceBoard: Sendable, Hashable {
    public var place: StopPlace
    public var via: StopPlace?
    public var kind: SourceBoardRequest.Kind
    public var entries: [BoardEntry]
    /// Station and service alerts that apply within the board's time, or nil when the
    /// source has no alerts at all (as opposed to none now).
    public var alerts: BoardAlerts?
    /// For each entry, the IDs of the alerts (among `alerts`) about its route or service.
    public var entryAlertIDs: [[String]]?
    /// Nil for a board from a timetable with no live source.
    public var live: LiveInfo?
    /// Set when the board is empty for a reason the source gave ("No service scheduled",
    /// "the timetable ends on 2025-11-16").
    public var emptyReason: String?

    public init(place: StopPlace, via: StopPlace? = nil, kind: SourceBoardRequest.Kind, entries: [BoardEntry],
                alerts: BoardAlerts? = nil, entryAlertIDs: [[String]]? = nil, live: LiveInfo? = nil, emptyReason: String? = nil) {
        self.place = place; self.via = via; self.kind = kind; self.entries = entries; self.alerts = alerts
        self.entryAlertIDs = entryAlertIDs; self.live = live; self.emptyReason = emptyReason
    }
}

/// A source's answer about one service.
public struct SourceService: Sendable, Hashable {
    public var details: ServiceDetails
    /// The time zone its times are shown in.
    public var timeZone: String
    public var alerts: [Alert]?
    public var live: LiveInfo?

    public init(details: ServiceDetails, timeZone: String, alerts: [Alert]? = nil, live: LiveInfo? = nil) {
        self.details = details; self.timeZone = timeZone; self.alerts = alerts; self.live = live
    }
}

/// A source's alerts for a scope, active now.
public struct SourceAlerts: Sendable, Hashable {
    public var place: StopPlace?
    public var alerts: [Alert]
    /// Alerts in scope but not active now.
    public var inactiveCount: Int
    /// Every alert the source holds.
    public var total: Int
    /// The zone to show times in.
    public var timeZone: String
    /// Remarks for an operator about the alerts themselves ("Not in the timetable: 2 of 9 stops …").
    public var notes: [String]

    public init(place: StopPlace? = nil, alerts: [Alert], inactiveCount: Int = 0, total: Int, timeZone: String, notes: [String] = []) {
        self.place = place; self.alerts = alerts; self.inactiveCount = inactiveCount; self.total = total; self.timeZone = timeZone
        self.notes = notes
    }
}

/// A source's vehicles.
public struct SourceVehicles: Sendable, Hashable {
    public var vehicles: [VehiclePlacement]
    public var live: LiveInfo?

    public init(vehicles: [VehiclePlacement], live: LiveInfo?) { self.vehicles = vehicles; self.live = live }
}

/// How one upstream of a source is doing, for `/health/ready`, `onward sources` and metrics.
public struct SourceStatus: Sendable, Hashable {
    public enum State: String, Sendable, Hashable { case fresh, stale, failing, unavailable, idle }

    /// The public name (`national-rail`, `halifax`, `halifax/trip-updates`): never a URL.
    public var name: String
    public var state: State
    /// Seconds since the upstream's data was made, when known.
    public var ageSeconds: Int64?
    /// A safe, short reason for a state other than fresh.
    public var detail: String?
    /// Requests left in the current allowance, for budgeted upstreams.
    public var budgetRemaining: Int?
    /// The last good answer, when the source keeps it.
    public var lastSuccess: Instant?
    /// Failures since the last good answer, when the source counts them.
    public var consecutiveFailures: Int?
    /// Further figures for `/metrics` (fetch counts, what a feed matched), by metric name
    /// without the `onward_` prefix.
    public var measures: [Measure] = []
    /// For a static timetable: the version in service.
    public var version: Version?
    /// Something the operator should act on before it becomes a problem (a timetable about to run out).
    public var warning: String?

    /// A static feed's version as it is served: what operators compare across instances.
    public struct Version: Sendable, Hashable {
        /// SHA-256 of the feed's bytes, in hex.
        public var hash: String
        public var fetchedAt: Instant
        /// `feed_info.feed_version`, when given.
        public var publisherVersion: String?
        public var firstDate: ServiceDate?
        public var lastDate: ServiceDate?
        public init(hash: String, fetchedAt: Instant, publisherVersion: String?, firstDate: ServiceDate?, lastDate: ServiceDate?) {
            self.hash = hash; self.fetchedAt = fetchedAt; self.publisherVersion = publisherVersion
            self.firstDate = firstDate; self.lastDate = lastDate
        }
    }

    public struct Measure: Sendable, Hashable {
        public var name: String
        public var help: String
        public var value: Double
        public init(_ name: String, _ value: Double, help: String) { self.name = name; self.value = value; self.help = help }
    }

    public init(name: String, state: State, ageSeconds: Int64? = nil, detail: String? = nil, budgetRemaining: Int? = nil,
                lastSuccess: Instant? = nil, consecutiveFailures: Int? = nil, measures: [Measure] = []) {
        self.name = name; self.state = state; self.ageSeconds = ageSeconds; self.detail = detail; self.budgetRemaining = budgetRemaining
        self.lastSuccess = lastSuccess; self.consecutiveFailures = consecutiveFailures; self.measures = measures
    }
}

/// A source's journeys between two places, earliest departure first.
public struct SourceJourneys: Sendable, Hashable {
    public var from: StopPlace
    public var to: StopPlace
    public var journeys: [Journey]
    public var live: LiveInfo?
    /// Why there are none, in the traveller's words, when the source knows.
    public var emptyReason: String?

    public init(from: StopPlace, to: StopPlace, journeys: [Journey], live: LiveInfo? = nil, emptyReason: String? = nil) {
        self.from = from; self.to = to; self.journeys = journeys; self.live = live; self.emptyReason = emptyReason
    }
}
