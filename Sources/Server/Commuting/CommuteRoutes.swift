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
        let query = try await queries.journeyQuery(q)
        let option = try q.int("option", in: 1...Queries.maxLimit) ?? 1
        let simulate = try q.bool("simulate") ?? false
        let speed = try q.int("speed", in: CommuteService.speeds) ?? deps.commutes.defaultSpeed
        var settings = CommuteSettings()
        settings.nearStation = try q.bool("nearStation") ?? false
        let begun = try await deps.commutes.driver.begin(query, option: option, settings: settings, now: queries.now)
        let (id, view) = try await deps.commutes.start(begun, simulationSpeed: simulate ? speed : nil)
        var started = view
        started.id = id
        return try json(started, status: .created)
    }

    static func check(_ s: CommuteSightingDTO) throws { try CommuteDriver.check(s) }

    static let notFound = Problem(status: .notFound, code: "commute-not-found", title: "Commute not found",
                                  detail: "No commute in progress has this ID.")
}
