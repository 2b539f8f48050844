import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Transit
import TransitSources

/// The JSON API, version 1. Every answer is computed from one state taken at
/// the start of the request, so it is consistent even while updates land.
struct APIRoutes {
    let deps: ServerDependencies
    let cache = ResponseCache()

    func add<R: RouterMethods>(to router: R) where R.Context == OnwardRequestContext {
        let v1 = router.group("api/v1")
        v1.get("stops") { request, _ in try json(try await deps.queries().searchStops(try RequestParameters(request))) }
        v1.get("stops/nearby") { request, _ in try json(try await deps.queries().nearbyStops(try RequestParameters(request))) }
        v1.get("stops/{stopId}") { _, context in
            try json(try await deps.queries().stop(try context.pathID("stopId")))
        }
        v1.get("stops/{stopId}/departures") { request, context in try await board(request, context, arrivals: false) }
        v1.get("stops/{stopId}/arrivals") { request, context in try await board(request, context, arrivals: true) }
        v1.get("services/{tripId}") { request, context in
            let q = try RequestParameters(request)
            let date = try q.date("date")
            return try json(try await deps.queries().service(try context.pathID("tripId"), date: date, languages: q.languages))
        }
        v1.get("alerts") { request, _ in
            let q = try RequestParameters(request)
            let queries = deps.queries()
            let (stop, route) = try await queries.alertScope(q)
            return try json(try await queries.alerts(stopID: stop, routeID: route, languages: q.languages))
        }
        v1.get("journeys") { request, _ in try await journeys(request) }
        v1.get("stops/{stopId}/history") { request, context in try await history(.stop, try context.pathID("stopId"), request) }
        v1.get("routes/{routeId}/history") { request, context in try await history(.route, try context.pathID("routeId"), request) }
        CommuteRoutes(deps: deps, api: self).add(to: v1)
        WatchRoutes(deps: deps).add(to: v1)
        PeopleRoutes(deps: deps).add(to: v1)
        SkiRoutes(deps: deps).add(to: v1)
        TripRoutes(deps: deps).add(to: v1)
        SourceRoutes(deps: deps).add(to: v1)
        FeedRoutes(deps: deps).add(to: v1)
        v1.get("vehicles") { _, _ in try json(try await deps.queries().vehicles()) }
        v1.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                     body: .init(byteBuffer: OpenAPIDocument.bytes))
        }
    }

    /// How late a stop's routes, or a route at all its stops, usually are: `days` back from the last day of history.
    func history(_ kind: Queries.HistorySubject.Kind, _ id: String, _ request: Request) async throws -> Response {
        let queries = deps.queries()
        let subject = try await queries.historySubject(kind, id, try RequestParameters(request))
        guard let history = deps.history else { throw QueryError(.unsupported, "This server keeps no delay history.") }
        return try json(try await history.report(subject, today: ServiceDate(dayNumber: Int32(queries.now.epochSeconds / 86_400))))
    }

    /// A board: `to` (or `from` for arrivals), `date` and `time` in the stop's local time (or
    /// `at`, ISO 8601), `window` minutes or `limit` rows, `lang`. From a source that announces
    /// its changes, the same request answered this second from the same state comes from the cache.
    func board(_ request: Request, _ context: OnwardRequestContext, arrivals: Bool) async throws -> Response {
        let queries = deps.queries()
        let stopID = try context.pathID("stopId")
        let key = request.uri.description + "|" + (request.headers[.acceptLanguage] ?? "")
        // Resolved once: the cache's version comes from it, and the board is asked of it.
        guard let stop = try? queries.resolvedStop(stopID) else { return try json(try await queries.board(.init(stopID: stopID))) }
        if let version = stop.version, let hit = cache.cached(key, version: version, second: queries.now.epochSeconds) { return Self.board(hit) }
        let query = try await queries.boardQuery(try RequestParameters(request), stop: stop, arrivals: arrivals)
        guard let version = stop.version else { return try json(try await queries.board(query, stop: stop)) }
        return Self.board(try await cache.answer(for: key, version: version, second: queries.now.epochSeconds) {
            ByteBuffer(bytes: try JSONEncoder.api.encode(try await queries.board(query, stop: stop)))
        })
    }

    private static func board(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }
}

extension APIRoutes {
    /// Journeys, as `Queries.journeyQuery` reads the request (the CLI's `plan` reads its options there too).
    func journeys(_ request: Request) async throws -> Response {
        let queries = deps.queries()
        return try json(try await queries.plan(try await queries.journeyQuery(try RequestParameters(request))))
    }
}

/// A JSON answer. Live data changes every few seconds: nothing is cached.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let data = try JSONEncoder.api.encode(value)
    return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
