import API
import Foundation
import OnwardCore
import TransitSources

/// The one query layer: answers the JSON API, the pages, the live updates and the CLI
/// from the sources behind the `TransitSource` protocol (the GTFS network, National Rail,
/// the bus tracker), in the API's types, with one set of limits and one ID rule.
public struct Queries: Sendable {
    public let registry: SourceRegistry
    /// "Now", for live statuses and staleness (a CLI board "as of" a time sets it).
    public let now: Instant
    /// Limits how many journeys are planned at once (the server's); none: as many as are asked (the CLI).
    public var planning: PlanningBudget?

    public init(_ registry: SourceRegistry, now: Instant = .now()) {
        self.registry = registry
        self.now = now
    }

    /// Caps that keep one request cheap.
    public static let maxWindowMinutes = 1440
    public static let maxLimit = 100
    public static let defaultLimit = 15
    public static let maxRadiusMetres = 5_000.0
    /// Defaults of a stop search and of a nearby search.
    public static let defaultStopsLimit = 10
    public static let defaultRadiusMetres = 800.0

    public struct BoardQuery: Sendable, Hashable {
        public var stopID: String
        public var arrivals = false
        /// Only services that later call here (departures), or earlier called here (arrivals).
        public var via: String?
        public var at: Instant?
        public var windowMinutes: Int?
        public var limit: Int?
        public var languages: [String] = ["en"]
        /// The timetable alone (`SourceBoardRequest.timetableOnly`): the board a phone keeps for when it has no signal.
        public var timetableOnly = false

        public init(stopID: String, arrivals: Bool = false, via: String? = nil, at: Instant? = nil, windowMinutes: Int? = nil,
                    limit: Int? = nil, languages: [String] = ["en"]) {
            self.stopID = stopID; self.arrivals = arrivals; self.via = via; self.at = at
            self.windowMinutes = windowMinutes; self.limit = limit; self.languages = languages
        }
    }

    /// The limits every board obeys, whatever its source.
    public static func validateLimits(_ q: BoardQuery) throws(QueryError) {
        if let w = q.windowMinutes, !(1...Queries.maxWindowMinutes).contains(w) {
            throw QueryError(.invalidParameter, "window must be between 1 and \(Queries.maxWindowMinutes) minutes", parameter: "window")
        }
        if let l = q.limit, !(1...Queries.maxLimit).contains(l) {
            throw QueryError(.invalidParameter, "limit must be between 1 and \(Queries.maxLimit)", parameter: "limit")
        }
    }

    // MARK: - IDs

    /// The source and canonical ID an ID names here, or why not (unknown, or several sources have it).
    public func resolve(_ id: String, as kind: IDKind) throws(QueryError) -> (source: any TransitSource, id: String) {
        let (code, noun, hint): (QueryError.Code, String, String) = switch kind {
        case .stop: (.stopNotFound, "stop or station", " Search for stops at /api/v1/stops?q=NAME.")
        case .service: (.tripNotFound, "trip", " Trip IDs are on each board row.")
        case .route: (.routeNotFound, "route", "")
        }
        switch registry.lookup(id, as: kind) {
        case .found(let source, let canonical): return (source, canonical)
        case .ambiguous(let ids):
            throw QueryError(code, "Several feeds have a \(noun == "stop or station" ? "stop" : noun) '\(id)': \(ids.joined(separator: ", ")). Give one of these IDs.")
        case .notFound:
            throw QueryError(code, "No \(noun) has the ID '\(id)'.\(hint)")
        }
    }

    public func resolveStop(_ id: String) throws(QueryError) -> (source: any TransitSource, id: String) { try resolve(id, as: .stop) }

    // MARK: - Stops

    public func place(_ id: String) async throws(QueryError) -> StopPlace {
        let (source, canonical) = try resolveStop(id)
        do { return try await source.place(canonical) } catch { throw QueryError(error, sourceName: source.displayName) }
    }

    public func stop(_ id: String) async throws(QueryError) -> StopDTO { StopDTO(try await place(id)) }

    /// Stops whose names match, from every source that can search; a source that fails is left out.
    public func searchStops(_ text: String, limit: Int = Queries.defaultStopsLimit) async throws(QueryError) -> StopsDTO {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw QueryError(.invalidParameter, "q must not be empty", parameter: "q") }
        guard text.unicodeScalars.count <= 100 else { throw QueryError(.invalidParameter, "q must be at most 100 characters", parameter: "q") }
        let limit = min(max(limit, 1), Queries.maxLimit)
        var found: [StopPlace] = []
        for s in registry.sources where s.capabilities.contains(.stopSearch) && found.count < limit {
            if let r = try? await s.searchStops(text, limit: limit - found.count) { found += r }
        }
        return StopsDTO(Array(found.prefix(limit)))
    }

    /// Stops near a point, from every source that knows where its stops are, nearest first.
    public func nearbyStops(latitude: Double, longitude: Double, radius: Double = Queries.defaultRadiusMetres,
                            limit: Int = Queries.defaultStopsLimit) async throws(QueryError) -> StopsDTO {
        guard (-90...90).contains(latitude) else { throw QueryError(.invalidParameter, "lat must be between -90 and 90", parameter: "lat") }
        guard (-180...180).contains(longitude) else { throw QueryError(.invalidParameter, "lon must be between -180 and 180", parameter: "lon") }
        guard radius >= 1 && radius <= Queries.maxRadiusMetres else {
            throw QueryError(.invalidParameter, "radius must be between 1 and \(Int(Queries.maxRadiusMetres)) metres", parameter: "radius")
        }
        let limit = min(max(limit, 1), Queries.maxLimit)
        var found: [StopPlace] = []
        for s in registry.sources where s.capabilities.contains(.nearby) {
            if let r = try? await s.nearbyStops(latitude: latitude, longitude: longitude, radius: radius, limit: limit) { found += r }
        }
        return StopsDTO(Array(found.sorted { ($0.distance ?? 0) < ($1.distance ?? 0) }.prefix(limit)))
    }

    /// Names for people of the stops and routes these alerts mention.
    public func names(of alerts: [AlertDTO]) -> EntityNames {
        let entities = alerts.flatMap(\.informedEntities)
        let stops = Array(Set(entities.compactMap(\.stopId))), routes = Array(Set(entities.compactMap(\.routeId)))
        var names = EntityNames()
        for s in registry.sources { names.merge(s.names(stopIDs: stops, routeIDs: routes)) }
        return names
    }

    // MARK: - Boards

    /// A board; `stop` is its stop when the request resolved it already (it is resolved once per request).
    public func board(_ q: BoardQuery, stop: ResolvedStop? = nil) async throws(QueryError) -> BoardDTO {
        try Queries.validateLimits(q)
        let resolved: ResolvedStop
        if let stop { resolved = stop } else { resolved = try resolvedStop(q.stopID) }
        let (source, stopID) = (resolved.source, resolved.id)
        let caps = source.capabilities
        guard caps.contains(q.arrivals ? .arrivals : .departures) else {
            throw QueryError(.unsupported, "\(source.displayName) has no \(q.arrivals ? "arrivals" : "departures") boards.")
        }
        var via: String?
        if let v = q.via {
            guard caps.contains(.callingAtFilter) else {
                throw QueryError(.unsupported, "\(source.displayName) cannot filter a board by a calling point.",
                                 parameter: q.arrivals ? "from" : "to")
            }
            let r = try resolveStop(v)
            guard r.source.sourceNames == source.sourceNames else {
                throw QueryError(.stopNotFound, "No \(source.displayName) stop or station has the ID '\(v)'.")
            }
            via = r.id
        }
        let request = SourceBoardRequest(kind: q.arrivals ? .arrivals : .departures, stopID: stopID, via: via, at: q.at,
                                         windowMinutes: q.windowMinutes,
                                         // Both may be given: at most `limit` rows within the window.
                                         limit: q.windowMinutes == nil ? (q.limit ?? Queries.defaultLimit) : q.limit,
                                         languages: q.languages, now: now, timetableOnly: q.timetableOnly)
        var board: SourceBoard
        do { board = try await source.board(request) } catch { throw QueryError(error, sourceName: source.displayName) }
        // The limit is the query layer's rule, whatever the upstream sent.
        if let limit = request.limit, board.entries.count > limit {
            board.entries.removeLast(board.entries.count - limit)
            board.entryAlertIDs = board.entryAlertIDs.map { Array($0.prefix(limit)) }
        }
        var dto = Self.dto(board, source: CanonicalID.split(stopID)?.source, languages: q.languages)
        dto.sourceName = source.displayName
        dto.sourceCapabilities = source.capabilities.names
        return dto
    }

    /// A source's board in the API's shape.
    public static func dto(_ board: SourceBoard, source: String?, languages: [String]) -> BoardDTO {
        let zone = TimeZone.named(board.place.timeZone)
        let alerts = board.alerts.map { a in
            BoardAlertsDTO(highPriority: a.highPriority.map { AlertDTO($0, languages: languages, timeZone: zone) },
                           other: a.other.map { AlertDTO($0, languages: languages, timeZone: zone) })
        }
        var dto = BoardDTO(stop: board.place, via: board.via, entries: board.entries, arrivals: board.kind == .arrivals,
                           live: board.live.map(LiveDTO.init), alerts: alerts, entryAlerts: board.entryAlertIDs)
        dto.source = source
        dto.emptyReason = board.emptyReason
        return dto
    }

    // MARK: - Services

    /// One run of a service: on `date`, else today where it runs, else its next run;
    /// `startTime` picks the run of a frequency-based trip.
    public func service(_ id: String, date: ServiceDate?, startTime: Int? = nil, languages: [String] = ["en"]) async throws(QueryError) -> ServiceDTO {
        let (source, canonical) = try resolve(id, as: .service)
        guard source.capabilities.contains(.serviceDetails) else {
            throw QueryError(.unsupported, "\(source.displayName) has no service details.")
        }
        let answer: SourceService
        do { answer = try await source.service(SourceServiceRequest(serviceID: canonical, date: date, startTime: startTime, now: now)) } catch {
            throw QueryError(error, sourceName: source.displayName, kind: .service)
        }
        let zone = TimeZone.named(answer.timeZone)
        var dto = ServiceDTO(answer.details, live: answer.live.map(LiveDTO.init),
                             alerts: answer.alerts.map { $0.map { AlertDTO($0, languages: languages, timeZone: zone) } })
        dto.source = CanonicalID.split(canonical)?.source
        dto.timeZone = answer.timeZone
        if answer.details.vehicle?.latitude == nil, let placed = answer.details.placedByLiveTimes(at: now) {
            dto.placedVehicle = PlacedVehicleDTO(placed, stopID: answer.details.calls[placed.callIndex].stopID)
        }
        return dto
    }

    // MARK: - Alerts

    /// Station alerts (a stop), service alerts (a route or a trip), or every alert, active now.
    public func alerts(stopID: String?, routeID: String?, tripID: String? = nil, languages: [String] = ["en"]) async throws(QueryError) -> AlertsDTO {
        var targets: [(source: any TransitSource, scope: AlertScope, kind: IDKind)] = []
        if let stopID {
            let r = try resolve(stopID, as: .stop)
            targets = [(r.source, .stop(r.id), .stop)]
        } else if let routeID {
            let r = try resolve(routeID, as: .route)
            targets = [(r.source, .route(r.id), .route)]
        } else if let tripID {
            let r = try resolve(tripID, as: .service)
            targets = [(r.source, .service(r.id), .service)]
        } else {
            targets = registry.sources.filter { $0.capabilities.contains(.alerts) }.map { ($0, .all, .stop) }
        }
        var answers: [SourceAlerts] = []
        for t in targets {
            guard t.source.capabilities.contains(.alerts) else { throw QueryError(.unsupported, "\(t.source.displayName) has no alerts.") }
            do { answers.append(try await t.source.alerts(t.scope, now: now)) } catch {
                // Every alert of every source: one that cannot list them all is left out.
                if case .all = t.scope { continue }
                throw QueryError(error, sourceName: t.source.displayName, kind: t.kind)
            }
        }
        let zone = TimeZone.named(answers.first?.timeZone ?? "UTC")
        var routeId: String?
        if case .route(let id)? = targets.first?.scope { routeId = id }
        var dto = AlertsDTO(at: LocalTime(now, in: zone).iso8601, stop: answers.first?.place, routeId: routeId,
                            alerts: answers.flatMap(\.alerts).map { AlertDTO($0, languages: languages, timeZone: zone) },
                            inactiveCount: answers.map(\.inactiveCount).reduce(0, +), totalInFeeds: answers.map(\.total).reduce(0, +))
        if case .service(let id)? = targets.first?.scope { dto.tripId = id }
        dto.timeZone = answers.first?.timeZone
        let notes = answers.flatMap(\.notes)
        if !notes.isEmpty { dto.notes = notes }
        return dto
    }

    // MARK: - Vehicles

    /// Every vehicle the live data places, from every source that has vehicles and holds
    /// them already (a source asked on demand, like the bus tracker, would spend a request
    /// per route on a network-wide list: it is asked per route instead).
    public func vehicles(routeID: String? = nil) async throws(QueryError) -> VehiclesDTO {
        var items: [VehiclesDTO.Item] = []
        var live: LiveDTO?
        for s in registry.sources where s.capabilities.contains(.vehicles) && s.updates != nil {
            guard let answer = try? await s.vehicles(routeID: routeID, now: now) else { continue }
            live = live ?? answer.live.map(LiveDTO.init)
            items += answer.vehicles.map {
                VehiclesDTO.Item(tripId: $0.tripID ?? "", routeId: $0.routeID ?? "", routeShortName: $0.routeShortName ?? "",
                                 serviceDate: $0.serviceDate?.isoString ?? "", vehicle: VehicleDTO($0.vehicle))
            }
        }
        return VehiclesDTO(live: live, vehicles: items)
    }

    // MARK: - Browse

    /// Browse, step 1: a source's routes.
    public func routes(source name: String) async throws(QueryError) -> RoutesDTO {
        guard let source = registry.source(named: name) else {
            let known = registry.names.isEmpty ? "none is configured" : "configured: " + registry.names.joined(separator: ", ")
            throw QueryError(.sourceNotFound, "No source is named '\(name)' (\(known)).")
        }
        guard source.capabilities.contains(.browse) else { throw QueryError(.unsupported, "\(source.displayName) has no list of routes.") }
        let routes: [RouteSummary]
        do { routes = try await source.routes() } catch { throw QueryError(error, sourceName: source.displayName, kind: .route) }
        // A network of several feeds lists each feed's routes under its own name.
        return RoutesDTO(source: name, routes: source.sourceNames.count == 1 ? routes : routes.filter { CanonicalID.split($0.id)?.source == name })
    }

    /// Browse, step 2 (directions) or 3 (a direction's stops).
    public func route(_ id: String, direction: String?) async throws(QueryError) -> RouteDetailDTO {
        let (source, canonical) = try resolve(id, as: .route)
        guard source.capabilities.contains(.browse) else { throw QueryError(.unsupported, "\(source.displayName) has no list of routes.") }
        do {
            if let direction {
                return RouteDetailDTO(route: canonical, direction: direction, stops: try await source.stops(routeID: canonical, directionID: direction))
            }
            return RouteDetailDTO(route: canonical, directions: try await source.directions(routeID: canonical))
        } catch {
            throw QueryError(error, sourceName: source.displayName, kind: .route)
        }
    }

    // MARK: - Sources

    /// What is configured and how each upstream is doing.
    public func sources() -> [SourcesDTO.Item] {
        registry.sources.flatMap { s in
            s.sourceNames.map { name in
                SourcesDTO.Item(name: name, displayName: s.displayName, capabilities: s.capabilities.names,
                                upstreams: s.status(now: now).map(SourcesDTO.UpstreamDTO.init))
            }
        }
    }
}

extension SourcesDTO.UpstreamDTO {
    /// An upstream's status on the wire: the one mapping for `/api/v1/sources`, `/health/ready` and the feed refresh.
    public init(_ s: SourceStatus) {
        self.init(name: s.name, state: s.state.rawValue, ageSeconds: s.ageSeconds, detail: s.detail, budgetRemaining: s.budgetRemaining,
                  version: s.version.map(FeedVersionDTO.init), warning: s.warning)
    }
}

extension FeedVersionDTO {
    /// A timetable's version on the wire, for `/api/v1/sources`, `/health/ready` and the feed refresh.
    public init(_ v: SourceStatus.Version) {
        self.init(hash: v.hash, fetchedAt: LocalTime(v.fetchedAt, in: .gmt).iso8601, publisherVersion: v.publisherVersion,
                  firstDate: v.firstDate?.isoString, lastDate: v.lastDate?.isoString)
    }
}

extension SourceCapabilities {
    /// Names for people and JSON, in a fixed order.
    public var names: [String] {
        let all: [(SourceCapabilities, String)] = [
            (.stopSearch, "stopSearch"), (.nearby, "nearby"), (.departures, "departures"), (.arrivals, "arrivals"),
            (.callingAtFilter, "callingAt"), (.serviceDetails, "serviceDetails"), (.alerts, "alerts"), (.browse, "browse"),
            (.vehicles, "vehicles"), (.anyTime, "anyTime"), (.timeWindow, "timeWindow"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

extension LiveDTO {
    public init(_ info: LiveInfo) {
        self.init(simulated: info.simulated, updatedAt: info.updatedAt, stale: info.stale, unavailable: info.unavailable)
    }
}
