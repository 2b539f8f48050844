import API
import Foundation
import OnwardCore
import Storage
import Trips

/// Group trips over a `TripRepository`: creating and joining, members, and shared positions, with
/// every privacy rule from `Trips`. Anything of a trip answers 404 to anyone who is not its member,
/// exactly as a trip that does not exist.
public final class TripService: Sendable {
    let repository: any TripRepository
    let people: PeopleService
    public let now: @Sendable () -> Instant
    /// Every change is announced here after it is stored, for the live map, events and chat.
    public let hub: TripHub
    /// Broadcasts and invitations by Web Push and Telegram.
    public let notifier: TripNotifier

    /// What Telegram must send in `X-Telegram-Bot-Api-Secret-Token` with each update; without it the webhook is off.
    let telegramWebhookSecret: String?

    public init(repository: any TripRepository, people: PeopleService, notifier: TripNotifier? = nil, telegramWebhookSecret: String? = nil,
                now: @escaping @Sendable () -> Instant = { .now() }) {
        self.repository = repository; self.people = people; self.now = now; self.telegramWebhookSecret = telegramWebhookSecret
        hub = TripHub()
        self.notifier = notifier ?? TripNotifier(repository: repository, people: people.repository)
    }

    public func create(by person: String, name: String, endsAt: Instant) async throws -> Trip {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...80).contains(trimmed.count) else { throw PeopleService.invalid("name must be 1 to 80 characters", "name") }
        // Well formed but past: it conflicts with the clock, not with the request's shape.
        guard endsAt > now() else {
            throw ServiceError(.alreadyEnded, "endsAt is past: a trip must end in the future.", parameter: "endsAt")
        }
        // A code clash (one in a trillion) is refused by storage: try again with another.
        for _ in 0..<3 {
            let trip = Trip(id: Secrets.id(), name: trimmed, endsAt: endsAt, host: person, inviteCode: Self.inviteCode())
            do {
                try await repository.saveTrip(trip)
                return trip
            } catch let e as StorageError where e.code == .conflict { continue }
        }
        throw ServiceError(.tryAgain, "No invitation code was free; try again.")
    }

    /// A live map opening on `tripID` for `person`: the trip, with its members and positions put in the hub's
    /// room (read after the connection subscribed, so nothing announced between is lost); nil when the person
    /// is not a member (which a connection treats as a trip that does not exist).
    public func openLive(_ tripID: String, for person: String) async throws -> Trip? {
        guard let trip = try await repository.trip(id: tripID), trip.isMember(person) else { return nil }
        hub.seed(trip, positions: try await repository.positions(trip: tripID))
        return trip
    }

    public func join(_ person: String, code: String) async throws -> Trip {
        guard let trip = try await repository.trip(inviteCode: code.trimmingCharacters(in: .whitespaces).uppercased()) else { throw Self.notFound }
        guard !trip.isMember(person) else { return trip }
        let code = trip.inviteCode
        // In one step: two people joining at once are both kept.
        let outcome = try await repository.updateTrip(id: trip.id) { t -> Result<Trip, Trip.Failure> in
            do throws(Trip.Failure) { t = try t.joining(person, code: code); return .success(t) } catch { return .failure(error) }
        }
        let joined = try Self.mapped { () throws(Trip.Failure) in try (outcome ?? .failure(.notFound)).get() }
        hub.publish(.members(joined))
        return joined
    }

    /// Leaves a trip: from then on nothing of it is the person's to see, and their position is shown to nobody.
    public func leave(_ id: String, person: String) async throws {
        let outcome = try await repository.updateTrip(id: id) { t -> Result<Trip, Trip.Failure> in
            do throws(Trip.Failure) { t = try t.leaving(person); return .success(t) } catch { return .failure(error) }
        }
        let left = try Self.mapped { () throws(Trip.Failure) in try (outcome ?? .failure(.notFound)).get() }
        hub.publish(.members(left))
    }

    /// The trips `person` is on.
    public func trips(of person: String) async throws -> [Trip] { try await repository.trips(of: person) }

    /// The trip, if `person` is on it; 404 otherwise, as for a trip that does not exist.
    public func trip(_ id: String, for person: String) async throws -> Trip {
        guard let trip = try await repository.trip(id: id), trip.isMember(person) else { throw Self.notFound }
        return trip
    }

    public func members(_ id: String, for person: String) async throws -> TripMembersDTO {
        let trip = try await trip(id, for: person)
        var members: [TripMembersDTO.Member] = []
        for (member, role) in trip.members.sorted(by: { $0.key < $1.key }) {
            let name = try await people.repository.account(id: member)?.displayName ?? "—"
            members.append(.init(id: member, displayName: name, role: role.rawValue))
        }
        return TripMembersDTO(members: members)
    }

    /// Stores the caller's position on a trip, shared until `until` (at the latest the trip's end).
    public func share(_ id: String, person: String, latitude: Double, longitude: Double, accuracy: Double, until: Instant) async throws {
        let trip = try await trip(id, for: person)
        // An end already past stops sharing: the position is kept but never shown.
        let position = SharedPosition(person: person, latitude: latitude, longitude: longitude, accuracyMetres: accuracy,
                                      at: now(), sharingUntil: min(until, trip.endsAt))
        try await repository.savePosition(position, trip: id)
        hub.publish(.position(trip: id, position))
    }

    /// Pauses (or resumes) the caller's sharing on a trip: a paused position is never shown.
    public func pause(_ id: String, person: String, paused: Bool) async throws {
        _ = try await trip(id, for: person)
        guard var position = try await repository.positions(trip: id).first(where: { $0.person == person }) else { return }
        position.paused = paused
        try await repository.savePosition(position, trip: id)
        hub.publish(.position(trip: id, position))
    }

    public func visible(_ id: String, to person: String, radius: Double) async throws -> TripPositionsDTO {
        let trip = try await trip(id, for: person)
        let seen = MapVisibility.visible(to: person, on: trip, positions: try await repository.positions(trip: id), now: now(), radiusMetres: radius)
        return TripPositionsDTO(positions: seen.map(Self.dto))
    }

    public static func dto(_ p: SharedPosition) -> TripPositionsDTO.Position {
        .init(person: p.person, latitude: p.latitude, longitude: p.longitude, accuracyMetres: p.accuracyMetres,
              at: p.at.description, sharingUntil: p.sharingUntil.description)
    }

    // MARK: - Events

    /// A new event, sent to the audience it names (members of the trip only).
    public func createEvent(_ id: String, by person: String, title: String, at: Instant, latitude: Double, longitude: Double, details: String,
                            audience: TripEvent.Audience) async throws -> TripEvent {
        let trip = try await trip(id, for: person)
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...120).contains(trimmed.count) else { throw PeopleService.invalid("title must be 1 to 120 characters", "title") }
        guard details.count <= 2_000 else { throw PeopleService.invalid("details must be at most 2000 characters", "details") }
        // Positions and friendships decide "nearby" and "friends only": read only when the audience needs them.
        var positions: [SharedPosition] = [], friendships = Friendships()
        if case .chosen = audience {} else {
            positions = try await repository.positions(trip: id)
            friendships = try await repository.friendships(of: [person])
        }
        let sent = try Self.mapped { () throws(Trip.Failure) in
            try TripEvent(id: Secrets.id(), trip: trip, creator: person, title: trimmed, at: at, latitude: latitude, longitude: longitude,
                          details: details, audience: audience, positions: positions, friendships: friendships, trips: [trip], now: now())
        }
        try await repository.saveEvent(sent)
        hub.publish(.event(sent))
        await notifier.invite(sent, trip: trip)
        return sent
    }

    /// The trip's events `person` may see (those they made or were invited to), soonest first.
    public func events(_ id: String, for person: String) async throws -> [TripEvent] {
        let trip = try await trip(id, for: person)
        return try await repository.events(trip: id).filter { $0.isVisible(to: person, trip: trip) }
    }

    /// An answer to an event; 404 for an event one was not invited to, exactly as for one that does not exist.
    public func answer(_ id: String, event eventID: String, by person: String, _ answer: TripEvent.Answer) async throws -> TripEvent {
        let trip = try await trip(id, for: person)
        guard let event = try await repository.event(id: eventID), event.tripId == id, event.isVisible(to: person, trip: trip) else {
            throw Self.eventNotFound
        }
        // In one step: two answers at once are both kept.
        let answered = try await repository.updateEvent(id: eventID) { e -> TripEvent? in
            do throws(Trip.Failure) { e = try e.answering(person, answer, trip: trip); return e } catch { return nil }
        }
        guard let answered = answered ?? nil else { throw Self.eventNotFound }
        hub.publish(.event(answered))
        return answered
    }

    public static func dto(_ e: TripEvent) -> TripEventDTO {
        TripEventDTO(id: e.id, tripId: e.tripId, creator: e.creator, title: e.title, at: e.at.description, latitude: e.latitude, longitude: e.longitude,
                     details: e.details, invitees: e.invitees.sorted(), answers: e.answers.mapValues(\.rawValue))
    }

    static let eventNotFound = ServiceError(.eventNotFound, "No event has this ID.")

    public static func dto(_ trip: Trip, for person: String) -> TripDTO {
        TripDTO(id: trip.id, name: trip.name, endsAt: trip.endsAt.description, role: trip.members[person]?.rawValue ?? "traveller",
                inviteCode: trip.isHost(person) ? trip.inviteCode : nil)
    }

    static func mapped<T>(_ body: () throws(Trip.Failure) -> T) throws -> T {
        do throws(Trip.Failure) { return try body() } catch {
            switch error {
            case .notFound, .wrongCode: throw notFound
            case .lastHost: throw ServiceError(.lastHost, error.description)
            }
        }
    }

    static let notFound = ServiceError(.tripNotFound, "No trip has this ID or code.")

    /// Eight letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L).
    static func inviteCode() -> String {
        let alphabet = Array("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
        return String((0..<8).map { _ in alphabet.randomElement()! })
    }
}
