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

    public init(kind: Kind = .departures, stopID: String, via: String? = nil, at: Instant? = nil, windowMinutes: Int? = nil,
                limit: Int? = nil, languages: [String] = ["en"], now: Instant) {
        self.kind = kind; self.stopID = stopID; self.via = via; self.at = at; self.windowMinutes = windowMinutes
        self.limit = limit; self.languages = languages; self.now = now
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
