import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Timetable
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
            var found = try deps.queries().searchStops(text, limit: limit)
            if !deps.sources.isEmpty, found.stops.count < limit {
                found.stops += await deps.sourceQueries().searchStops(text, limit: limit - found.stops.count).map(StopDTO.init)
            }
            return try json(found)
        }
        v1.get("stops/nearby") { request, _ in
            let q = try Params(request)
            let lat = try q.requiredDouble("lat"), lon = try q.requiredDouble("lon"), radius = try q.double("radius") ?? 800
            let limit = try q.int("limit", in: 1...Queries.maxLimit) ?? 10
            var found = try deps.queries().nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit)
            if !deps.sources.isEmpty {
                let more = await deps.sourceQueries().nearbyStops(latitude: lat, longitude: lon, radius: radius, limit: limit).map(StopDTO.init)
                found.stops = Array((found.stops + more).sorted { ($0.distanceMetres ?? 0) < ($1.distanceMetres ?? 0) }.prefix(limit))
            }
            return try json(found)
        }
        v1.get("stops/{stopId}") { _, context in
            let queries = deps.queries()
            let id = try context.pathID("stopId")
            if deps.sourceOwns(id, as: .stop, queries) { return try json(try await deps.sourceQueries().stop(id)) }
            let stop = try queries.stop(id)
            return try json(StopDTO(queries.state.timetable.place(stop)))
        }
        v1.get("stops/{stopId}/departures") { request, context in try await board(request, context, arrivals: false) }
        v1.get("stops/{stopId}/arrivals") { request, context in try await board(request, context, arrivals: true) }
        v1.get("services/{tripId}") { request, context in
            let q = try Params(request)
            let date = try q.date("date")
            let queries = deps.queries()
            let id = try context.pathID("tripId")
            if deps.sourceOwns(id, as: .service, queries) {
                return try json(try await deps.sourceQueries().service(id, date: date, languages: q.languages))
            }
            return try json(try queries.service(tripID: id, date: date, languages: q.languages))
        }
        v1.get("alerts") { request, _ in
            let q = try Params(request)
            let queries = deps.queries()
            let stop = q.string("stop"), route = q.string("route")
            if let stop, deps.sourceOwns(stop, as: .stop, queries) {
                return try json(try await deps.sourceQueries().alerts(stopID: stop, routeID: nil, languages: q.languages))
            }
            if stop == nil, let route, deps.sourceOwns(route, as: .route, queries) {
                return try json(try await deps.sourceQueries().alerts(stopID: nil, routeID: route, languages: q.languages))
            }
            return try json(try queries.alerts(stopID: stop, routeID: route, languages: q.languages))
        }
        SourceRoutes(deps: deps).add(to: v1)
        v1.get("vehicles") { _, _ in try json(deps.queries().vehicles()) }
        v1.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=300"],
                     body: .init(byteBuffer: OpenAPIDocument.bytes))
        }
    }

    /// A board, from the cache when the same request was answered this second from the same state.
    func board(_ request: Request, _ context: OnwardRequestContext, arrivals: Bool) async throws -> Response {
        let queries = deps.queries()
        let stopID = try context.pathID("stopId")
        if deps.sourceOwns(stopID, as: .stop, queries) {
            let q = try Params(request)
            let query = Queries.BoardQuery(stopID: stopID, arrivals: arrivals, via: q.string(arrivals ? "from" : "to"),
                                           at: try await deps.sourceMoment(q, stopID: stopID, now: queries.now).moment,
                                           windowMinutes: try q.int("window", in: 1...Queries.maxWindowMinutes),
                                           limit: try q.int("limit", in: 1...Queries.maxLimit), languages: q.languages)
            return try json(try await deps.sourceQueries().board(query))
        }
        let key = request.uri.description + "|" + (request.headers[.acceptLanguage] ?? "")
        let body = try cache.answer(for: key, version: queries.state.version, second: queries.now.epochSeconds) {
            ByteBuffer(bytes: try JSONEncoder.api.encode(try queries.board(try boardQuery(request, context, arrivals: arrivals, queries: queries))))
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: body))
    }

    /// A board request from the path and query: `to` (or `from` for arrivals), `date` and `time`
    /// in the stop's local time (or `at`, ISO 8601), `window` minutes or `limit` rows, `lang`.
    func boardQuery(_ request: Request, _ context: OnwardRequestContext, arrivals: Bool, queries: Queries) throws -> Queries.BoardQuery {
        let q = try Params(request)
        let stopID = try context.pathID("stopId")
        let zone = TimeZone(identifier: queries.state.timetable.timeZoneIdentifier(of: try queries.stop(stopID))) ?? .gmt
        return Queries.BoardQuery(stopID: stopID, arrivals: arrivals, via: q.string(arrivals ? "from" : "to"),
                                  at: try q.moment(in: zone, now: queries.now),
                                  windowMinutes: try q.int("window", in: 1...Queries.maxWindowMinutes),
                                  limit: try q.int("limit", in: 1...Queries.maxLimit), languages: q.languages)
    }
}

/// A JSON answer. Live data changes every few seconds: nothing is cached.
func json(_ value: some Encodable) throws -> Response {
    let data = try JSONEncoder.api.encode(value)
    return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                    body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

extension JSONEncoder {
    static let api: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()
}
