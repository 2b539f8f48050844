import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage
import Transit
import WebPages

/// People in the JSON API: accounts, sign-in, and each person's saved routes and stacks. Another
/// person's route answers 404, exactly like one that does not exist: every route is looked up
/// among the caller's own.
struct PeopleRoutes {
    let deps: ServerDependencies
    var people: PeopleService { deps.people }
    var auth: Authenticator { deps.auth }

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.post("accounts") { request, context in
            let body: NewAccountDTO = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["username", "password", "displayName"])
            let (signed, token) = try await people.createAccount(username: body.username, password: body.password, displayName: body.displayName,
                                                                 client: Self.client(context), kind: .token)
            return try Self.signedIn(signed, token: token, status: .created)
        }
        v1.post("sessions") { request, context in
            let body: SignInDTO = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["username", "password"])
            let (signed, token) = try await people.signIn(username: body.username, password: body.password, client: Self.client(context), kind: .token)
            return try Self.signedIn(signed, token: token, status: .created)
        }
        v1.post("sessions/telegram") { request, context in
            let fields: TelegramFields = try await jsonBody(request, limit: deps.settings.maxBodyBytes)
            let (signed, token) = try await people.telegramSignIn(fields.values, client: Self.client(context), kind: .token)
            return try Self.signedIn(signed, token: token, status: .created)
        }
        v1.delete("sessions/current") { request, _ in
            let signed = try await auth.require(request)
            try await people.signOut(signed, everywhere: try RequestParameters(request).bool("everywhere") ?? false)
            return Response(status: .noContent)
        }
        v1.get("me") { request, _ in try json(PeopleService.me(try await auth.require(request).account)) }
        v1.delete("me") { request, _ in
            let signed = try await auth.require(request)
            try await deps.trips.forget(signed.account.id)
            try await people.deleteAccount(signed)
            return Response(status: .noContent)
        }
        v1.get("me/export") { request, _ in
            var response = try json(try await people.export(try await auth.require(request)))
            response.headers[.contentDisposition] = "attachment; filename=\"onward-export.json\""
            return response
        }
        v1.get("me/routes") { request, _ in try json(try await people.routes(try await auth.require(request).account.id)) }
        v1.get("me/offline") { request, _ in
            let signed = try await auth.require(request)
            let language = Language(tag: (try? RequestParameters(request))?.languages.first ?? "en") ?? .en
            return try json(deps.offlinePack(try await people.routes(signed.account.id), strings: Strings(language)))
        }
        v1.post("me/routes") { request, _ in
            let (signed, change) = try await changeRequest(request, ["version", "route"])
            guard let route = change.route else { throw PeopleService.invalid("route is required", "route") }
            let ready = try await prepared(route, signed, request)
            return try json(try await people.edit(signed.account.id, version: change.version, .create(ready)), status: .created)
        }
        v1.patch("me/routes/{routeId}") { request, context in
            let (signed, change) = try await changeRequest(request, ["version", "name", "position"])
            guard change.name != nil || change.position != nil else { throw PeopleService.invalid("give name or position", "name") }
            return try json(try await people.edit(signed.account.id, version: change.version,
                                                  .update(routeId: try context.pathID("routeId"), name: change.name, position: change.position)))
        }
        v1.delete("me/routes/{routeId}") { request, context in
            let (signed, change) = try await changeRequest(request, ["version"])
            return try json(try await people.edit(signed.account.id, version: change.version, .delete(routeId: try context.pathID("routeId"))))
        }
        v1.post("me/routes/{routeId}/stack") { request, context in
            let (signed, change) = try await changeRequest(request, ["version", "route"])
            let stackID = try context.pathID("routeId")
            guard let route = change.route else { throw PeopleService.invalid("route is required", "route") }
            let ready = try await prepared(route, signed, request, onto: stackID)
            return try json(try await people.edit(signed.account.id, version: change.version, .push(routeId: stackID, ready)))
        }
        v1.post("me/routes/{routeId}/stack/pop") { request, context in
            let (signed, change) = try await changeRequest(request, ["version"])
            return try json(try await people.edit(signed.account.id, version: change.version, .pop(routeId: try context.pathID("routeId"))))
        }
        v1.put("me/current") { request, _ in
            let (signed, change) = try await changeRequest(request, ["version", "routeId"])
            guard let id = change.routeId else { throw PeopleService.invalid("routeId is required", "routeId") }
            return try json(try await people.edit(signed.account.id, version: change.version, .setCurrent(routeId: id)))
        }
        v1.get("me/glance") { request, _ in
            let signed = try await auth.require(request)
            return try json(await deps.queries().currentResult(try await people.routes(signed.account.id), languages: try RequestParameters(request).languages))
        }
    }

    /// The signed-in caller and the change's body.
    func changeRequest(_ request: Request, _ fields: Set<String>) async throws -> (PeopleService.Signed, RoutesChangeDTO) {
        let signed = try await auth.require(request)
        return (signed, try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: fields))
    }

    func prepared(_ route: SavedRoute, _ signed: PeopleService.Signed, _ request: Request, onto stack: String? = nil) async throws -> SavedRoute {
        try await people.prepared(route, for: signed.account.id, onto: stack, queries: deps.queries(), languages: try RequestParameters(request).languages)
    }

    static func client(_ context: OnwardRequestContext) -> String { context.clientAddress }

    static func signedIn(_ signed: PeopleService.Signed, token: String, status: HTTPResponse.Status) throws -> Response {
        var response = try json(SignedInDTO(me: PeopleService.me(signed.account), token: token, expiresAt: signed.session.expiresAt.description))
        response.status = status
        return response
    }
}

/// The Telegram login widget's fields: strings or whole numbers (`id`, `auth_date`), kept as the
/// text Telegram signed.
struct TelegramFields: Decodable {
    var values: [String: String]

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let raw = try c.decode([String: Scalar].self)
        // A null field is no field: Telegram never sends one, and it signs only what it sends.
        values = raw.filter { if case .null = $0.value { false } else { true } }.mapValues(\.text)
    }

    enum Scalar: Decodable {
        case text(String)
        case number(Int64)
        case null
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { self = .null } else if let n = try? c.decode(Int64.self) { self = .number(n) } else { self = .text(try c.decode(String.self)) }
        }
        var text: String {
            switch self {
            case .text(let s): s
            case .number(let n): String(n)
            case .null: ""
            }
        }
    }
}
