import API
import Foundation
import OnwardCore
import TransitSources

/// Answers questions about any source behind the `TransitSource` protocol, in the
/// API's types: the path the JSON API, the pages and the CLI share for National
/// Rail, the bus tracker and every later source. Limits and ID rules are the same
/// as `Queries` (which still answers the GTFS network directly).
public struct SourceQueries: Sendable {
    public let registry: SourceRegistry
    public let now: Instant

    public init(_ registry: SourceRegistry, now: Instant = .now()) {
        self.registry = registry
        self.now = now
    }

    /// The source and canonical ID a stop ID names here, or a stop-not-found error.
    public func resolveStop(_ id: String) throws(QueryError) -> (source: any TransitSource, id: String) {
        guard let r = registry.resolve(id, as: .stop) else {
            throw QueryError(.stopNotFound, "No stop or station has the ID '\(id)'. Search for stops at /api/v1/stops?q=NAME.")
        }
        return r
    }

    public func stop(_ id: String) async throws(QueryError) -> StopDTO {
        let (source, canonical) = try resolveStop(id)
        do { return StopDTO(try await source.place(canonical)) } catch { throw QueryError(error, sourceName: source.displayName) }
    }

    public func board(_ q: Queries.BoardQuery) async throws(QueryError) -> BoardDTO {
        try Queries.validateLimits(q)
        let (source, stopID) = try resolveStop(q.stopID)
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
            guard let r = registry.resolve(v, as: .stop), r.source.sourceNames == source.sourceNames else {
                throw QueryError(.stopNotFound, "No \(source.displayName) stop or station has the ID '\(v)'.")
            }
            via = r.id
        }
        let request = SourceBoardRequest(kind: q.arrivals ? .arrivals : .departures, stopID: stopID, via: via, at: q.at,
                                         windowMinutes: q.windowMinutes, limit: q.windowMinutes == nil ? (q.limit ?? Queries.defaultLimit) : q.limit,
                                         languages: q.languages, now: now)
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
        let zone = TimeZone(identifier: board.place.timeZone) ?? .gmt
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

    public func service(_ id: String, date: ServiceDate?, languages: [String]) async throws(QueryError) -> ServiceDTO {
        guard let (source, canonical) = registry.resolve(id, as: .service) else {
            throw QueryError(.tripNotFound, "No service has the ID '\(id)'. Service IDs are on each board row.")
        }
        guard source.capabilities.contains(.serviceDetails) else {
            throw QueryError(.unsupported, "\(source.displayName) has no service details.")
        }
        let answer: SourceService
        do { answer = try await source.service(SourceServiceRequest(serviceID: canonical, date: date, now: now)) } catch {
            throw QueryError(error, sourceName: source.displayName, kind: .service)
        }
        let zone = TimeZone(identifier: answer.timeZone) ?? .gmt
        var dto = ServiceDTO(answer.details, live: answer.live.map(LiveDTO.init),
                             alerts: answer.alerts.map { $0.map { AlertDTO($0, languages: languages, timeZone: zone) } })
        dto.source = CanonicalID.split(canonical)?.source
        return dto
    }

    /// Alerts for a stop or a route of one of these sources.
    public func alerts(stopID: String?, routeID: String?, languages: [String]) async throws(QueryError) -> AlertsDTO {
        let scope: AlertScope
        let source: any TransitSource
        if let stopID {
            let r = try resolveStop(stopID)
            (source, scope) = (r.source, .stop(r.id))
        } else if let routeID, let r = registry.resolve(routeID, as: .route) {
            (source, scope) = (r.source, .route(r.id))
        } else {
            throw QueryError(.routeNotFound, "No route has the ID '\(routeID ?? "")'.")
        }
        guard source.capabilities.contains(.alerts) else { throw QueryError(.unsupported, "\(source.displayName) has no alerts.") }
        let answer: SourceAlerts
        do { answer = try await source.alerts(scope, now: now) } catch { throw QueryError(error, sourceName: source.displayName) }
        let zone = TimeZone(identifier: answer.timeZone) ?? .gmt
        var routeId: String?
        if case .route(let id) = scope { routeId = id }
        return AlertsDTO(at: LocalTime(now, in: zone).iso8601, stop: answer.place, routeId: routeId,
                         alerts: answer.alerts.map { AlertDTO($0, languages: languages, timeZone: zone) },
                         inactiveCount: answer.inactiveCount, totalInFeeds: answer.total)
    }

    /// Stops whose names match, from every source that can search; a source that fails is left out.
    public func searchStops(_ text: String, limit: Int) async -> [StopPlace] {
        var found: [StopPlace] = []
        for s in registry.sources where s.capabilities.contains(.stopSearch) {
            if let r = try? await s.searchStops(text, limit: limit) { found += r }
        }
        return Array(found.prefix(limit))
    }

    /// Stops near a point, from every source that knows where its stops are, nearest first.
    public func nearbyStops(latitude: Double, longitude: Double, radius: Double, limit: Int) async -> [StopPlace] {
        var found: [StopPlace] = []
        for s in registry.sources where s.capabilities.contains(.nearby) {
            if let r = try? await s.nearbyStops(latitude: latitude, longitude: longitude, radius: radius, limit: limit) { found += r }
        }
        return Array(found.sorted { ($0.distance ?? 0) < ($1.distance ?? 0) }.prefix(limit))
    }

    /// Browse, step 1: a source's routes.
    public func routes(source name: String) async throws(QueryError) -> RoutesDTO {
        guard let source = registry.source(named: name) else {
            let known = registry.names.isEmpty ? "none is configured" : "configured: " + registry.names.joined(separator: ", ")
            throw QueryError(.sourceNotFound, "No source is named '\(name)' (\(known)).")
        }
        guard source.capabilities.contains(.browse) else { throw QueryError(.unsupported, "\(source.displayName) has no list of routes.") }
        do { return RoutesDTO(source: name, routes: try await source.routes()) } catch { throw QueryError(error, sourceName: source.displayName, kind: .route) }
    }

    /// Browse, step 2 (directions) or 3 (a direction's stops).
    public func route(_ id: String, direction: String?) async throws(QueryError) -> RouteDetailDTO {
        guard let (source, canonical) = registry.resolve(id, as: .route) else {
            throw QueryError(.routeNotFound, "No route has the ID '\(id)'. Routes are listed at /api/v1/sources/{source}/routes.")
        }
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

    /// What is configured and how each upstream is doing.
    public func sources() -> [SourcesDTO.Item] {
        registry.sources.flatMap { s in
            s.sourceNames.map { name in
                SourcesDTO.Item(name: name, displayName: s.displayName, capabilities: s.capabilities.names,
                                upstreams: s.status(now: now).map {
                                    SourcesDTO.UpstreamDTO(name: $0.name, state: $0.state.rawValue, ageSeconds: $0.ageSeconds,
                                                           detail: $0.detail, budgetRemaining: $0.budgetRemaining)
                                })
            }
        }
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
