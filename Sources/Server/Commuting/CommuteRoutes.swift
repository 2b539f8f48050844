import API
import Commute
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Transit
import TransitSources
import WebPush

/// Commuting mode in the JSON API. A commute's ID is the only key to it: anyone without it gets
/// 404, exactly as for a commute that does not exist. It travels in the path of these requests,
/// which the access log never prints (`AccessLogMiddlewarePath`).
struct CommuteRoutes {
    let deps: ServerDependencies
    let api: APIRoutes

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.post("commutes") { request, _ in try await start(request) }
        v1.get("commutes/{commuteId}") { _, context in
            guard let view = await deps.commutes.view(try context.pathID("commuteId")) else { throw Self.notFound }
            return try json(view)
        }
        v1.delete("commutes/{commuteId}") { _, context in
            guard try await deps.commutes.end(try context.pathID("commuteId")) else { throw Self.notFound }
            return Response(status: .noContent)
        }
        v1.post("commutes/{commuteId}/sightings") { request, context in
            let id = try context.pathID("commuteId")
            // Anyone else's commute is a 404 whatever they send.
            guard await deps.commutes.exists(id) else { throw Self.notFound }
            let sighting: CommuteSightingDTO = try await jsonBody(request, limit: deps.settings.maxBodyBytes)
            try Self.check(sighting)
            guard let alerts = try await deps.commutes.sighting(id, sighting) else { throw Self.notFound }
            return try json(CommuteAlertsDTO(alerts: alerts))
        }
        v1.put("commutes/{commuteId}/push") { request, context in
            let id = try context.pathID("commuteId")
            guard await deps.commutes.exists(id) else { throw Self.notFound }
            let s: PushSubscriptionDTO = try await jsonBody(request, limit: deps.settings.maxBodyBytes)
            let subscription = try PushSender.checked(s, sender: deps.commutes.pushSender)
            guard try await deps.commutes.setPush(id, subscription) else { throw Self.notFound }
            return Response(status: .noContent)
        }
        v1.delete("commutes/{commuteId}/push") { _, context in
            guard try await deps.commutes.setPush(try context.pathID("commuteId"), nil) else { throw Self.notFound }
            return Response(status: .noContent)
        }
        v1.get("push/key") { _, _ in
            guard let key = deps.commutes.pushKey else {
                throw PushSender.unavailable
            }
            return try json(PushKeyDTO(publicKey: key))
        }
    }

    /// `POST /api/v1/commutes`: a JSON object with `planJourney`'s parameters, `option` (which of
    /// the journeys found, from 1), `nearStation`, and `simulate` with `speed` for a simulated traveller.
    func start(_ request: Request) async throws -> Response {
        let buffer = try await request.body.collect(upTo: deps.settings.maxBodyBytes)
        let q = try RequestParameters(json: Data(buffer.readableBytesView), acceptLanguage: request.headers[.acceptLanguage])
        let queries = deps.queries()
        var query = try await queries.journeyQuery(q)
        let option = try q.int("option", in: 1...Queries.maxLimit) ?? 1
        query.limit = max(query.limit, option)
        let simulate = try q.bool("simulate") ?? false
        let speed = try q.int("speed", in: CommuteService.speeds) ?? deps.commutes.defaultSpeed
        var settings = CommuteSettings()
        settings.nearStation = try q.bool("nearStation") ?? false
        let (answer, source) = try await queries.journeys(query)
        guard option <= answer.journeys.count else {
            throw Problem(status: .notFound, code: "journey-not-found", title: "No such journey",
                          detail: answer.journeys.isEmpty ? (answer.emptyReason ?? "No journey was found then.")
                              : "option \(option): only \(answer.journeys.count) journeys were found.", parameter: "option")
        }
        let journey = answer.journeys[option - 1]
        let plan = CommuteState.Plan(destination: answer.to.id, maxWalkMetres: query.maxWalkMetres, transferSlackSeconds: query.transferSlackSeconds,
                                     maxTransfers: query.maxTransfers, wheelchair: query.wheelchair)
        let stations = source.listedStations() + [answer.from, answer.to]
        let (id, view) = try await deps.commutes.start(journey, plan: plan, settings: settings, stations: stations,
                                                       simulationSpeed: simulate ? speed : nil)
        var started = view
        started.id = id
        return try json(started, status: .created)
    }

    static func check(_ s: CommuteSightingDTO) throws {
        func bad(_ detail: String, _ parameter: String) -> Problem {
            Problem(status: .badRequest, code: "invalid-parameter", title: "Invalid parameter", detail: detail, parameter: parameter)
        }
        if let at = s.at, Instant(iso8601: at) == nil { throw bad("at '\(at)' is not an ISO 8601 time with its offset", "at") }
        if s.beacon != nil { return }
        guard let lat = s.lat, (-90...90).contains(lat) else { throw bad("lat (-90…90) is required, or a beacon", "lat") }
        guard let lon = s.lon, (-180...180).contains(lon) else { throw bad("lon (-180…180) is required, or a beacon", "lon") }
        if let a = s.accuracy, !(a.isFinite && a >= 0) { throw bad("accuracy must be a number of metres, 0 or more", "accuracy") }
    }

    static let notFound = Problem(status: .notFound, code: "commute-not-found", title: "Commute not found",
                                  detail: "No commute in progress has this ID.")
}
