import API
import Foundation
import OnwardCore
import TransitSources

extension Queries {
    /// A route as it is kept: its IDs made canonical (so it still resolves after another feed is
    /// added), checked against the sources, and named when the person gave no name.
    public func checked(_ route: SavedRoute, languages: [String] = ["en"]) async throws(QueryError) -> SavedRoute {
        var r = route
        func stop(_ field: String, _ id: String?) throws(QueryError) -> String? {
            guard let id else { return nil }
            do { return try resolve(id, as: .stop).id } catch { throw QueryError(error.code, error.message, parameter: "route.\(field)") }
        }
        r.stopId = try stop("stopId", r.stopId)
        r.from = try stop("from", r.from)
        r.to = try stop("to", r.to)
        if let trip = r.tripId {
            do { r.tripId = try resolve(trip, as: .service).id } catch { throw QueryError(error.code, error.message, parameter: "route.tripId") }
        }
        r.name = r.name.trimmingCharacters(in: .whitespacesAndNewlines)
        if r.name.isEmpty {
            // Stop names can be long ("Stasiun MRT Lebak Bulus Grab"): a made-up name is cut to fit, never refused.
            let name = try await defaultName(r, languages: languages)
            r.name = name.count > SavedRoutes.maxNameLength ? name.prefix(SavedRoutes.maxNameLength - 1) + "…" : name
        }
        return r
    }

    /// What a person would call the route: "Blok M", "Blok M to Bundaran HI", "Blok M → Bundaran HI", "MRT to Bundaran HI".
    func defaultName(_ r: SavedRoute, languages: [String]) async throws(QueryError) -> String {
        func name(_ id: String?) async throws(QueryError) -> String { id == nil ? "" : try await place(id!).name }
        switch r.kind {
        case .board:
            let at = try await name(r.stopId)
            guard r.to != nil else { return at }
            return "\(at) \(r.arrivals == true ? "from" : "to") \(try await name(r.to))"
        case .journey:
            return "\(try await name(r.from)) → \(try await name(r.to))"
        case .journeyOption:
            let from = try await place(r.from!)
            let time = Instant(iso8601: r.departure ?? "").map { LocalTime($0, in: TimeZone.named(from.timeZone)).hhmm } ?? ""
            return "\(time) \(from.name) → \(try await name(r.to))"
        case .service:
            let s = try await service(r.tripId!, date: r.serviceDate.flatMap { ServiceDate(iso: $0) }, languages: languages)
            return [s.routeShortName, "to", s.headsign].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// What the top of a person's current stack shows now.
    public func currentResult(_ routes: SavedRoutes, languages: [String] = ["en"]) async -> RouteResultDTO {
        guard let stack = routes.current else { return RouteResultDTO(state: .noRoutes) }
        return await result(stack.top, trail: [stack.route] + stack.pushed, languages: languages)
    }

    /// What one route shows now: loaded, or failed with the reason, never a blank.
    public func result(_ route: SavedRoute, trail: [SavedRoute]? = nil, languages: [String] = ["en"]) async -> RouteResultDTO {
        var dto = RouteResultDTO(state: .loaded, route: route, trail: trail)
        do {
            switch route.kind {
            case .board:
                dto.board = try await board(BoardQuery(stopID: route.stopId ?? "", arrivals: route.arrivals ?? false, via: route.to,
                                                       languages: languages))
            case .service:
                dto.service = try await service(route.tripId ?? "", date: route.serviceDate.flatMap { ServiceDate(iso: $0) }, languages: languages)
            case .journey:
                dto.journeys = try await plan(JourneyQuery(from: route.from ?? "", to: route.to ?? ""))
            case .journeyOption:
                var q = JourneyQuery(from: route.from ?? "", to: route.to ?? "", at: route.departure.flatMap { Instant(iso8601: $0) })
                q.limit = 1
                dto.journeys = try await plan(q)
            }
        } catch {
            dto.state = .failed
            dto.reason = error.message
        }
        return dto
    }
}
