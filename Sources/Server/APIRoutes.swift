import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Transit
import TransitSources

/// The JSON API, version 1. Every answer is computed from one state taken at
/// the start of the request, so it is consistent even while updates land.
struct APIRoutes {
    let deps: ServerDependencies
    let cache = ResponseCache()

    func add<R: RouterMethods>(to router: R) where R.Context == OnwardRequestContext {
        let v1 = router.group("api/v1")
        v1.get("stops") { request, _ in
            let q = try Params(request)
            let text = try q.required("q", maxLength: 100), limit = try q.int("limit", in: 1...Queries.maxLimit) ?? 10
            return try json(try await deps.queries().searchStops(text, limit: limit))
        }
        v1.get("stops/nearby") { request, _ in
            let q = try Params(request)
            let lat = try q.requiredDouble("lat"), lon = try q.requiredDouble("lon"), radius = try q.double("radius") ?? 800
            let limit = try q.int("limit", in: 1...Queries.maxLimit) ?? 10
            return try json(try await deps.queries().nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit))
        }
        v1.get("stops/{stopId}") { _, context in
            try json(try await deps.queries().stop(try context.pathID("stopId")))
        }
        v1.get("stops/{stopId}/departures") { request, context in try await board(request, context, arrivals: false) }
        v1.get("stops/{stopId}/arrivals") { request, context in try await board(request, context, arrivals: true) }
        v1.get("services/{tripId}") { request, context in
            let q = try Params(request)
            let date = try q.date("date")
            return try json(try await deps.queries().service(try context.pathID("tripId"), date: date, languages: q.languages))
        }
        v1.get("alerts") { request, _ in
            let q = try Params(request)
            return try json(try await deps.queries().alerts(stopID: q.string("stop"), routeID: q.string("route"), languages: q.languages))
        }
        v1.get("journeys") { request, _ in try await journeys(request) }
        CommuteRoutes(deps: deps, api: self).add(to: v1)
        PeopleRoutes(deps: deps).add(to: v1)
        SkiRoutes(deps: deps).add(to: v1)
        TripRoutes(deps: deps).add(to: v1)
        SourceRoutes(deps: deps).add(to: v1)
        v1.get("vehicles") { _, _ in try json(try await deps.queries().vehicles()) }
        v1.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                     body: .init(byteBuffer: OpenAPIDocument.bytes))
        }
    }

    /// A board: `to` (or `from` for arrivals), `date` and `time` in the stop's local time (or
    /// `at`, ISO 8601), `window` minutes or `limit` rows, `lang`. From a source that announces
    /// its changes, the same request answered this second from the same state comes from the cache.
    func board(_ request: Request, _ context: OnwardRequestContext, arrivals: Bool) async throws -> Response {
        let queries = deps.queries()
        let stopID = try context.pathID("stopId")
        let key = request.uri.description + "|" + (request.headers[.acceptLanguage] ?? "")
        let updates = (try? queries.resolveStop(stopID))?.source.updates
        if let updates, let hit = cache.cached(key, version: updates.version, second: queries.now.epochSeconds) { return Self.board(hit) }
        let q = try Params(request)
        let query = Queries.BoardQuery(stopID: stopID, arrivals: arrivals, via: q.string(arrivals ? "from" : "to"),
                                       at: try await deps.boardMoment(q, stopID: stopID, queries: queries).moment,
                                       windowMinutes: try q.int("window", in: 1...Queries.maxWindowMinutes),
                                       limit: try q.int("limit", in: 1...Queries.maxLimit), languages: q.languages)
        guard let updates else { return try json(try await queries.board(query)) }
        return Self.board(try await cache.answer(for: key, version: updates.version, second: queries.now.epochSeconds) {
            ByteBuffer(bytes: try JSONEncoder.api.encode(try await queries.board(query)))
        })
    }

    private static func board(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }
}

extension APIRoutes {
    /// Journeys: `from` and `to` (stop or station IDs), `date` and `time` in the origin's local
    /// time (or `at`), `arriveBy`, `window` minutes, `limit`, `maxWalk` metres, `transferSlack`
    /// seconds, `maxTransfers`: the CLI's `plan` options, with its limits.
    func journeys(_ request: Request) async throws -> Response {
        let queries = deps.queries()
        return try json(try await queries.plan(try await journeyQuery(try Params(request), queries: queries)))
    }

    /// The journey options a request names (`planJourney`'s parameters; starting a commute takes the same).
    func journeyQuery(_ q: Params, queries: Queries) async throws -> Queries.JourneyQuery {
        let from = try q.required("from", maxLength: 200), to = try q.required("to", maxLength: 200)
        var query = Queries.JourneyQuery(from: from, to: to, at: try await deps.boardMoment(q, stopID: from, queries: queries).moment)
        // Without a time, arriving by now: the latest journeys that have just arrived.
        query.arriveBy = try q.bool("arriveBy") ?? false
        query.windowMinutes = try q.int("window", in: 0...Queries.maxWindowMinutes) ?? 0
        query.limit = try q.int("limit", in: 1...Queries.maxLimit) ?? Queries.defaultJourneyLimit
        query.maxWalkMetres = try q.int("maxWalk", in: 0...Queries.maxWalkMetres) ?? 500
        query.transferSlackSeconds = try q.int("transferSlack", in: 0...Queries.maxTransferSlackSeconds) ?? 60
        query.maxTransfers = try q.int("maxTransfers", in: 0...Queries.maxTransfersAllowed) ?? 5
        query.wheelchair = try q.bool("wheelchair") ?? false
        return query
    }
}

/// A JSON answer. Live data changes every few seconds: nothing is cached.
func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let data = try JSONEncoder.api.encode(value)
    return Response(status: status, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
