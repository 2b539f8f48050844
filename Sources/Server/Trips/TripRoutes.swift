import API
import Foundation
import HTTPTypes
import Hummingbird
import OnwardCore
import Services
import Storage
import Transit
import Trips

/// Group trips in the JSON API (signed in; bearer token or session cookie with its anti-forgery token).
struct TripRoutes {
    let deps: ServerDependencies
    var trips: TripService { deps.trips }

    struct NewTrip: Decodable { var name: String; var endsAt: String }
    struct Join: Decodable { var code: String }
    struct Position: Decodable { var latitude: Double; var longitude: Double; var accuracy: Double; var sharingUntil: String }
    struct Pause: Decodable { var paused: Bool }
    struct NewEvent: Decodable {
        var title: String
        var at: String
        var latitude: Double
        var longitude: Double
        var details: String?
        /// `nearby` (with `radius`), `friends`, or `chosen` (with `people`).
        var audience: String
        var radius: Double?
        var people: [String]?
    }
    struct RSVP: Decodable { var answer: String }
    struct Text: Decodable { var text: String }

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        ChatRoutes(deps: deps).add(to: v1)
        FriendRoutes(deps: deps).add(to: v1)
        v1.get("trips") { request, _ in
            let signed = try await deps.auth.require(request)
            let me = signed.account.id
            return try json(TripsDTO(trips: try await trips.trips(of: me).map { TripService.dto($0, for: me) }))
        }
        v1.delete("trips/{tripId}/members/me") { request, context in
            let signed = try await deps.auth.require(request)
            try await trips.leave(try context.pathID("tripId"), person: signed.account.id)
            return Response(status: .noContent)
        }
        v1.post("trips/{tripId}/broadcasts") { request, context in
            let signed = try await deps.auth.require(request)
            let body: Text = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["text"])
            return try json(try await trips.broadcast(try context.pathID("tripId"), by: signed.account.id, text: body.text), status: .created)
        }
        v1.get("trips/{tripId}/broadcasts") { request, context in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.broadcasts(try context.pathID("tripId"), for: signed.account.id))
        }
        v1.post("telegram/webhook") { request, _ in
            try trips.checkTelegramSecret(request.headers[HTTPField.Name("X-Telegram-Bot-Api-Secret-Token")!])
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            await trips.telegramUpdate(Data(buffer.readableBytesView))
            return Response(status: .ok)
        }
        v1.post("trips") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: NewTrip = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["name", "endsAt"])
            guard let ends = Instant(iso8601: body.endsAt) else { throw PeopleService.invalid("endsAt must be an ISO 8601 time with its offset", "endsAt") }
            return try json(TripService.dto(try await trips.create(by: signed.account.id, name: body.name, endsAt: ends), for: signed.account.id), status: .created)
        }
        v1.post("trips/join") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: Join = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["code"])
            return try json(TripService.dto(try await trips.join(signed.account.id, code: body.code), for: signed.account.id))
        }
        v1.get("trips/{tripId}/members") { request, context in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.members(try context.pathID("tripId"), for: signed.account.id))
        }
        v1.put("trips/{tripId}/position") { request, context in
            let signed = try await deps.auth.require(request)
            let body: Position = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["latitude", "longitude", "accuracy", "sharingUntil"])
            guard (-90...90).contains(body.latitude) else { throw PeopleService.invalid("latitude must be from -90 to 90", "latitude") }
            guard (-180...180).contains(body.longitude) else { throw PeopleService.invalid("longitude must be from -180 to 180", "longitude") }
            guard body.accuracy.isFinite, body.accuracy >= 0 else { throw PeopleService.invalid("accuracy must be metres, 0 or more", "accuracy") }
            guard let until = Instant(iso8601: body.sharingUntil) else {
                throw PeopleService.invalid("sharingUntil must be an ISO 8601 time with its offset", "sharingUntil")
            }
            try await trips.share(try context.pathID("tripId"), person: signed.account.id, latitude: body.latitude, longitude: body.longitude,
                                  accuracy: body.accuracy, until: until)
            return Response(status: .noContent)
        }
        v1.post("trips/{tripId}/position/pause") { request, context in
            let signed = try await deps.auth.require(request)
            let body: Pause = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["paused"])
            try await trips.pause(try context.pathID("tripId"), person: signed.account.id, paused: body.paused)
            return Response(status: .noContent)
        }
        v1.post("trips/{tripId}/events") { request, context in
            let signed = try await deps.auth.require(request)
            let b: NewEvent = try await jsonBody(request, limit: BodyLimit.limit(for: Substring(request.uri.path), default: deps.settings.maxBodyBytes),
                                                 fields: ["title", "at", "latitude", "longitude", "details", "audience", "radius", "people"])
            guard let at = Instant(iso8601: b.at) else { throw PeopleService.invalid("at must be an ISO 8601 time with its offset", "at") }
            guard (-90...90).contains(b.latitude), (-180...180).contains(b.longitude) else {
                throw PeopleService.invalid("latitude must be from -90 to 90 and longitude from -180 to 180", "latitude")
            }
            guard (b.people ?? []).count <= 100 else { throw PeopleService.invalid("people must be at most 100", "people") }
            // Checked whenever it is given, as documented, not only for a nearby audience (which alone uses it).
            let radius = b.radius ?? MapVisibility.defaultRadiusMetres
            guard radius >= 1, radius <= 100_000 else { throw PeopleService.invalid("radius must be from 1 to 100000 metres", "radius") }
            let audience: TripEvent.Audience
            switch b.audience {
            case "nearby":
                audience = .nearby(radiusMetres: radius)
            case "friends": audience = .friends
            case "chosen": audience = .chosen(b.people ?? [])
            default: throw PeopleService.invalid("audience must be nearby, friends or chosen", "audience")
            }
            let event = try await trips.createEvent(try context.pathID("tripId"), by: signed.account.id, title: b.title, at: at, latitude: b.latitude,
                                                    longitude: b.longitude, details: b.details ?? "", audience: audience)
            return try json(TripService.dto(event), status: .created)
        }
        v1.get("trips/{tripId}/events") { request, context in
            let signed = try await deps.auth.require(request)
            return try json(TripEventsDTO(events: try await trips.events(try context.pathID("tripId"), for: signed.account.id).map(TripService.dto)))
        }
        v1.put("trips/{tripId}/events/{eventId}/rsvp") { request, context in
            let signed = try await deps.auth.require(request)
            let b: RSVP = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["answer"])
            guard let answer = TripEvent.Answer(rawValue: b.answer) else { throw PeopleService.invalid("answer must be going, maybe or notGoing", "answer") }
            return try json(TripService.dto(try await trips.answer(try context.pathID("tripId"), event: try context.pathID("eventId"),
                                                                    by: signed.account.id, answer)))
        }
        v1.get("trips/{tripId}/positions") { request, context in
            let signed = try await deps.auth.require(request)
            let radius = try RequestParameters(request).double("radius") ?? 2_000
            guard radius >= 1, radius <= 100_000 else { throw PeopleService.invalid("radius must be from 1 to 100000 metres", "radius") }
            return try json(try await trips.visible(try context.pathID("tripId"), to: signed.account.id, radius: radius))
        }
    }
}
