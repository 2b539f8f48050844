import API
import Foundation
import OnwardCore
import Storage
import Trips
import WebPush

/// Friends and profiles. Everyone on a trip with someone is their friend; friends across trips ask and accept.
/// A profile is seen by its person and their friends; to anyone else it answers 404, as one that does not exist.
extension TripService {
    public func requestFriend(_ person: String, from: String) async throws -> FriendshipDTO {
        guard person != from, try await people.repository.account(id: person) != nil else { throw Self.personNotFound }
        let trips = try await repository.trips(of: from)
        if try await repository.friendships(of: [from]).areFriends(from, person, trips: trips) { return FriendshipDTO(status: "friends") }
        let accepted = try await repository.updateFriendships(of: [from, person]) { f in
            f.request(from: from, to: person)
            return f.accepted.contains(.init(from, person))
        }
        return FriendshipDTO(status: accepted ? "friends" : "requested")
    }

    public func acceptFriend(_ from: String, by person: String) async throws -> FriendshipDTO {
        guard try await repository.updateFriendships(of: [person, from], { $0.accept(by: person, from: from) }) else { throw Self.requestNotFound }
        return FriendshipDTO(status: "friends")
    }

    /// `person`'s friends (by a shared trip or an accepted request), by name.
    func friends(of person: String) async throws -> [FriendsDTO.Person] {
        let friendships = try await repository.friendships(of: [person])
        var ids = Set(friendships.accepted.compactMap { $0.a == person ? $0.b : $0.b == person ? $0.a : nil })
        for trip in try await repository.trips(of: person) { ids.formUnion(trip.members.keys) }
        ids.remove(person)
        return try await named(ids)
    }

    public func friendsList(_ person: String) async throws -> FriendsDTO {
        let friendships = try await repository.friendships(of: [person])
        return FriendsDTO(friends: try await friends(of: person),
                          incoming: try await named(Set(friendships.requests.filter { $0.to == person }.map(\.from))),
                          outgoing: try await named(Set(friendships.requests.filter { $0.from == person }.map(\.to))))
    }

    private func named(_ ids: Set<String>) async throws -> [FriendsDTO.Person] {
        var out: [FriendsDTO.Person] = []
        for id in ids { if let a = try await people.repository.account(id: id) { out.append(.init(id: id, displayName: a.displayName)) } }
        return out.sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
    }

    /// What `viewer` may see of `person`: themself, or a friend; 404 for anyone else.
    public func profile(_ person: String, for viewer: String) async throws -> ProfileDTO {
        guard let account = try await people.repository.account(id: person) else { throw Self.personNotFound }
        let viewerTrips = try await repository.trips(of: viewer)
        let shared = person == viewer ? viewerTrips : viewerTrips.filter { $0.isMember(person) }
        if person != viewer, shared.isEmpty {
            guard try await repository.friendships(of: [viewer]).areFriends(viewer, person, trips: []) else { throw Self.personNotFound }
        }
        let profile = try await repository.profile(person: person) ?? Profile(person: person)
        return ProfileDTO(id: person, displayName: account.displayName, bio: profile.bio,
                          photo: profile.photo == nil ? nil : "/api/v1/people/\(person)/photo", trips: shared.map(\.name).sorted())
    }

    /// The photo, under the profile's rule.
    public func photo(_ person: String, for viewer: String) async throws -> Profile.Photo {
        _ = try await profile(person, for: viewer)
        guard let photo = try await repository.profile(person: person)?.photo else { throw Self.personNotFound }
        return photo
    }

    /// A change to one's own profile: each field given is replaced (`photo: null` removes the photo).
    public struct ProfileChange: Sendable {
        public var displayName: String?
        public var bio: String?
        /// nil: unchanged; `.some(nil)`: removed.
        public var photo: Profile.Photo??
        public init(displayName: String? = nil, bio: String? = nil, photo: Profile.Photo?? = nil) {
            self.displayName = displayName; self.bio = bio; self.photo = photo
        }
    }

    public func updateProfile(_ person: String, _ change: ProfileChange) async throws -> ProfileDTO {
        if let name = change.displayName {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...80).contains(trimmed.count) else { throw PeopleService.invalid("displayName must be 1 to 80 characters", "displayName") }
            guard try await people.repository.rename(accountId: person, displayName: trimmed) else { throw Self.personNotFound }
        }
        if let bio = change.bio, let problem = Profile.bioProblem(bio) { throw PeopleService.invalid(problem, "bio") }
        var profile = try await repository.profile(person: person) ?? Profile(person: person)
        if let bio = change.bio { profile.bio = bio.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let photo = change.photo { profile.photo = photo }
        try await repository.saveProfile(profile)
        return try await self.profile(person, for: person)
    }

    /// Where broadcasts and invitations reach `person` by Web Push (nil stops them).
    public func setPush(_ person: String, _ subscription: PushSubscription?) async throws {
        var profile = try await repository.profile(person: person) ?? Profile(person: person)
        profile.push = try subscription.map { try JSONEncoder().encode($0) }
        try await repository.saveProfile(profile)
    }

    /// Before an account is deleted: off every trip (a last host too: the trip goes on without one), and
    /// everything they left on trips forgotten. Messages they wrote stay, shown as from someone gone.
    public func forget(_ person: String) async throws {
        for trip in try await repository.trips(of: person) {
            let left = try await repository.updateTrip(id: trip.id) { t -> Trip in t.members[person] = nil; return t }
            if let left { hub.publish(.members(left)) }
        }
        try await repository.forget(person: person)
    }

    static let personNotFound = ServiceError(.personNotFound, "No person has this ID.")
    static let requestNotFound = ServiceError(.requestNotFound, "This person has not asked to be your friend.")
}
