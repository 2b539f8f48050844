import OnwardCore

/// A board asked of a source. IDs are canonical.
public struct SourceBoardRequest: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case departures, arrivals }

    public var kind: Kind
    public var stopID: String
    /// Departures: only services that later call here; arrivals: only those that earlier called here.
    public var via: String?
    /// The board's moment; nil means the source's own now (a live board).
    public var at: Instant?
    /// Rows within this many minutes of the moment, or at most `limit` rows (one of the two).
    public var windowMinutes: Int?
    public var limit: Int?
    /// Languages for alert texts, most wanted first.
    public var languages: [String]
    /// "Now", for live statuses and staleness.
    public var now: Instant
    /// The timetable's times only, with no live data laid over them (a board kept for when there is no signal);
    /// `live` still says when the live data was last heard of. A source with no timetable of its own ignores it.
    public var timetableOnly = false

    public init(kind: Kind = .departures, stopID: String, via: String? = nil, at: Instant? = nil, windowMinutes: Int? = nil,
                limit: Int? = nil, languages: [String] = ["en"], now: Instant, timetableOnly: Bool = false) {
        self.kind = kind; self.stopID = stopID; self.via = via; self.at = at; self.windowMinutes = windowMinutes
        self.limit = limit; self.languages = languages; self.now = now; self.timetableOnly = timetableOnly
    }
}

/// One service asked of a source. `date` nil: the run today, else the next one.
public struct SourceServiceRequest: Sendable, Hashable {
    public var serviceID: String
    public var date: ServiceDate?
    /// For a frequency-based trip: the run starting at (or after) this many seconds past the service day's noon minus 12 h.
    public var startTime: Int?
    public var now: Instant

    public init(serviceID: String, date: ServiceDate? = nil, startTime: Int? = nil, now: Instant) {
        self.serviceID = serviceID; self.date = date; self.startTime = startTime; self.now = now
    }
}

/// Which alerts: every one, or those about a stop (station alerts), a route or a service.
public enum AlertScope: Sendable, Hashable {
    case all
    case stop(String)
    case route(String)
    case service(String)
}

/// A journey asked of a source: from one stop or station to another, leaving at
/// (or arriving by) a moment, with the planner's options.
public struct SourceJourneyRequest: Sendable, Hashable {
    public var from: String
    public var to: String
    /// Leave at or after this moment, or with `arriveBy` arrive by it; nil: now.
    public var at: Instant?
    public var arriveBy: Bool
    /// Every option departing within this many minutes (0: the options of the first departure).
    public var windowMinutes: Int
    public var limit: Int
    /// The longest walk between stops, in metres (0: only the feed's own transfers).
    public var maxWalkMetres: Int
    public var transferSlackSeconds: Int
    public var maxTransfers: Int
    /// Only what the source says is wheelchair accessible.
    public var wheelchair = false
    /// By the timetable alone: cancelled runs and skipped calls are not passed over (a watched journey is
    /// found as it was timetabled, to say what became of it).
    public var timetableOnly = false
    public var now: Instant

    public init(from: String, to: String, at: Instant? = nil, arriveBy: Bool = false, windowMinutes: Int = 0, limit: Int = 5,
                maxWalkMetres: Int = 500, transferSlackSeconds: Int = 60, maxTransfers: Int = 5, now: Instant) {
        self.from = from; self.to = to; self.at = at; self.arriveBy = arriveBy; self.windowMinutes = windowMinutes
        self.limit = limit; self.maxWalkMetres = maxWalkMetres; self.transferSlackSeconds = transferSlackSeconds
        self.maxTransfers = maxTransfers; self.now = now
    }
}
