import OnwardCore

/// A route in a list of routes (browse: routes → directions → stops).
public struct RouteDTO: Codable, Sendable, Equatable {
    public var id: String
    public var shortName: String
    public var longName: String
    public var color: String?

    public init(_ r: RouteSummary) { id = r.id; shortName = r.shortName; longName = r.longName; color = r.color }
}

public struct RoutesDTO: Codable, Sendable, Equatable {
    public var source: String
    public var routes: [RouteDTO]

    public init(source: String, routes: [RouteSummary]) { self.source = source; self.routes = routes.map(RouteDTO.init) }
}

public struct DirectionDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String

    public init(_ d: RouteDirection) { id = d.id; name = d.name }
}

/// A route's directions, or (with `direction`) the stops one direction serves, in order.
public struct RouteDetailDTO: Codable, Sendable, Equatable {
    public var route: String
    public var directions: [DirectionDTO]?
    public var direction: String?
    public var stops: [StopDTO]?

    public init(route: String, directions: [RouteDirection]) { self.route = route; self.directions = directions.map(DirectionDTO.init) }
    public init(route: String, direction: String, stops: [StopPlace]) {
        self.route = route; self.direction = direction; self.stops = stops.map(StopDTO.init)
    }
}

/// What is configured, and how each upstream is doing (`onward sources`, `/api/v1/sources`).
public struct SourcesDTO: Codable, Sendable, Equatable {
    public struct Item: Codable, Sendable, Equatable {
        public var name: String
        public var displayName: String
        public var capabilities: [String]
        public var upstreams: [UpstreamDTO]

        public init(name: String, displayName: String, capabilities: [String], upstreams: [UpstreamDTO]) {
            self.name = name; self.displayName = displayName; self.capabilities = capabilities; self.upstreams = upstreams
        }
    }

    public struct UpstreamDTO: Codable, Sendable, Equatable {
        public var name: String
        /// fresh, stale, failing, unavailable or idle.
        public var state: String
        public var ageSeconds: Int64?
        public var detail: String?
        public var budgetRemaining: Int?
        /// For a static timetable (`NAME/timetable`): the version in service.
        public var version: FeedVersionDTO?
        /// Something to act on soon (a timetable about to run out).
        public var warning: String?

        public init(name: String, state: String, ageSeconds: Int64?, detail: String?, budgetRemaining: Int?, version: FeedVersionDTO? = nil,
                    warning: String? = nil) {
            self.name = name; self.state = state; self.ageSeconds = ageSeconds; self.detail = detail; self.budgetRemaining = budgetRemaining
            self.version = version; self.warning = warning
        }
    }

    public var sources: [Item]

    public init(sources: [Item]) { self.sources = sources }
}

/// A static feed's version in service: the same on every instance that serves it.
public struct FeedVersionDTO: Codable, Sendable, Equatable {
    /// SHA-256 of the feed's bytes, in hex.
    public var hash: String
    /// When it was fetched, ISO 8601.
    public var fetchedAt: String
    /// `feed_info.feed_version`, when the feed gives one.
    public var publisherVersion: String?
    /// The first and last service dates (YYYY-MM-DD): `feed_info`'s, else the calendars'.
    public var firstDate: String?
    public var lastDate: String?

    public init(hash: String, fetchedAt: String, publisherVersion: String?, firstDate: String?, lastDate: String?) {
        self.hash = hash; self.fetchedAt = fetchedAt; self.publisherVersion = publisherVersion; self.firstDate = firstDate; self.lastDate = lastDate
    }
}

/// What `POST /api/v1/feeds/refresh` answers: whether a new version went into service, and every
/// static timetable as it stands after the check.
public struct FeedRefreshDTO: Codable, Sendable, Equatable {
    public var accepted: Bool
    /// This server does not fetch the feeds (servers sharing a database): the one that does was asked, and
    /// what it accepts reaches this one within seconds.
    public var forwarded: Bool
    public var timetables: [SourcesDTO.UpstreamDTO]
    public init(accepted: Bool, forwarded: Bool = false, timetables: [SourcesDTO.UpstreamDTO]) {
        self.accepted = accepted; self.forwarded = forwarded; self.timetables = timetables
    }
}
