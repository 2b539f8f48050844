import API
import Foundation
import Hummingbird
import OnwardCore
import Services
import Storage
import Transit

/// Chat in the JSON API: a conversation is `trip:<tripId>` or `person:<friend's ID>`; one not open to the caller answers 404.
struct ChatRoutes {
    let deps: ServerDependencies
    var trips: TripService { deps.trips }

    struct Post: Decodable { var text: String }
    struct Read: Decodable { var upTo: Int }

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("chat") { request, _ in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.conversations(for: signed.account.id))
        }
        v1.get("chat/{conversation}") { request, context in
            let signed = try await deps.auth.require(request)
            let q = try RequestParameters(request)
            let before = try q.int("before", in: 1...Int(Int32.max)), limit = try q.int("limit", in: 1...TripService.chatPageLimit) ?? 50
            return try json(try await trips.chat(try context.pathID("conversation"), for: signed.account.id, before: before, limit: limit))
        }
        v1.post("chat/{conversation}") { request, context in
            let signed = try await deps.auth.require(request)
            let body: Post = try await jsonBody(request, limit: BodyLimit.limit(for: Substring(request.uri.path), default: deps.settings.maxBodyBytes),
                                                fields: ["text"])
            return try json(try await trips.post(try context.pathID("conversation"), by: signed.account.id, text: body.text), status: .created)
        }
        v1.put("chat/{conversation}/read") { request, context in
            let signed = try await deps.auth.require(request)
            let body: Read = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["upTo"])
            let unread = try await trips.markRead(try context.pathID("conversation"), by: signed.account.id, upTo: body.upTo)
            return try json(["unread": unread])
        }
    }
}
