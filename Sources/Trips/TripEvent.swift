import Foundation
import OnwardCore

/// An event inside a trip (a dinner, a meeting point), sent to people nearby, to friends only, or to
/// chosen people. Who is invited is decided once, when it is sent; only they (and the one who sent
/// it) can see it and answer, and an answer from anyone else is as if the event did not exist.
public struct TripEvent: Sendable, Hashable, Codable {
    public enum Audience: Sendable, Hashable, Codable {
        /// Members whose shown position is within this many metres of the event's place.
        case nearby(radiusMetres: Double)
        case friends
        case chosen([String])
    }

    public enum Answer: String, Sendable, Hashable, Codable, CaseIterable { case going, maybe, notGoing }

    public var id: String
    public var tripId: String
    public var creator: String
    public var title: String
    public var at: Instant
    public var latitude: Double
    public var longitude: Double
    public var details: String
    public var invitees: Set<String>
    public var answers: [String: Answer]

    /// A new event with its invitees: members of the trip the audience names, never the creator, never anyone outside the trip.
    public init(id: String, trip: Trip, creator: String, title: String, at: Instant, latitude: Double, longitude: Double, details: String,
                audience: Audience, positions: [SharedPosition], friendships: Friendships, trips: [Trip], now: Instant) throws(Trip.Failure) {
        guard trip.isMember(creator) else { throw .notFound }
        self.id = id; self.tripId = trip.id; self.creator = creator; self.title = title; self.at = at
        self.latitude = latitude; self.longitude = longitude; self.details = details; self.answers = [:]
        let others = trip.members.keys.filter { $0 != creator }
        switch audience {
        case .nearby(let radius):
            let near = Set(positions.filter { $0.isShown(at: now) && GreatCircle.metres(latitude, longitude, $0.latitude, $0.longitude) <= radius }.map(\.person))
            invitees = Set(others.filter(near.contains))
        case .friends:
            invitees = Set(others.filter { friendships.areFriends(creator, $0, trips: trips) })
        case .chosen(let people):
            invitees = Set(others.filter(people.contains))
        }
    }

    /// Whether `person` may see the event: its creator and its invitees, while they are on the trip.
    public func isVisible(to person: String, trip: Trip) -> Bool {
        trip.isMember(person) && (person == creator || invitees.contains(person))
    }

    /// The event with `person`'s answer; anyone not invited (or no longer on the trip) gets `.notFound`.
    public func answering(_ person: String, _ answer: Answer, trip: Trip) throws(Trip.Failure) -> TripEvent {
        guard trip.isMember(person), invitees.contains(person) else { throw .notFound }
        var next = self
        next.answers[person] = answer
        return next
    }
}
