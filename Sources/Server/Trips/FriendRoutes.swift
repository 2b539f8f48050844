import API
import Foundation
import Hummingbird
import OnwardCore
import Services
import Storage
import Trips

/// Friends, profiles and one's Web Push address in the JSON API.
struct FriendRoutes {
    let deps: ServerDependencies
    var trips: TripService { deps.trips }

    struct Request_: Decodable { var person: String }
    /// `setMyPush`'s body: `subscription` is required, and null stops pushes.
    struct PushBody: Decodable {
        var subscription: PushSubscriptionDTO?
        enum CodingKeys: String, CodingKey { case subscription }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            subscription = try c.decode(PushSubscriptionDTO?.self, forKey: .subscription)
        }
    }

    /// `updateProfile`'s body: each field given is replaced; `photo` is base64 JPEG or PNG, or null to remove it.
    struct ProfileBody: Decodable {
        var displayName: String?
        var bio: String?
        var photo: String??
        enum CodingKeys: String, CodingKey { case displayName, bio, photo }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
            bio = try c.decodeIfPresent(String.self, forKey: .bio)
            if c.contains(.photo) { photo = .some(try c.decodeNil(forKey: .photo) ? nil : try c.decode(String.self, forKey: .photo)) }
        }
    }

    func add<R: RouterMethods>(to v1: R) where R.Context == OnwardRequestContext {
        v1.get("friends") { request, _ in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.friendsList(signed.account.id))
        }
        v1.post("friends/requests") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: Request_ = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["person"])
            return try json(try await trips.requestFriend(body.person, from: signed.account.id))
        }
        v1.post("friends/requests/{personId}/accept") { request, context in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.acceptFriend(try context.pathID("personId"), by: signed.account.id))
        }
        v1.get("people/{personId}") { request, context in
            let signed = try await deps.auth.require(request)
            return try json(try await trips.profile(try context.pathID("personId"), for: signed.account.id))
        }
        v1.get("people/{personId}/photo") { request, context in
            let signed = try await deps.auth.require(request)
            let photo = try await trips.photo(try context.pathID("personId"), for: signed.account.id)
            // Private to friends: never kept by a shared cache.
            return Response(status: .ok, headers: [.contentType: photo.mediaType, .cacheControl: "private, max-age=300"],
                            body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
        }
        v1.put("me/profile") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: ProfileBody = try await jsonBody(request, limit: BodyLimit.limit(for: Substring(request.uri.path), default: deps.settings.maxBodyBytes),
                                                       fields: ["displayName", "bio", "photo"])
            var photo: Profile.Photo?? = nil
            if let given = body.photo {
                if let base64 = given {
                    guard let bytes = Data(base64Encoded: base64) else { throw PeopleService.invalid("photo must be base64", "photo") }
                    switch Profile.Photo.checked(bytes) {
                    case .success(let p): photo = .some(p)
                    case .failure(let problem): throw PeopleService.invalid(problem.description, "photo")
                    }
                } else {
                    photo = .some(nil)
                }
            }
            return try json(try await trips.updateProfile(signed.account.id, .init(displayName: body.displayName, bio: body.bio, photo: photo)))
        }
        v1.put("me/push") { request, _ in
            let signed = try await deps.auth.require(request)
            let body: PushBody = try await jsonBody(request, limit: deps.settings.maxBodyBytes, fields: ["subscription"])
            let subscription = try body.subscription.map { try PushSender.checked($0, sender: trips.notifier.push) }
            try await trips.setPush(signed.account.id, subscription)
            return Response(status: .noContent)
        }
    }
}
