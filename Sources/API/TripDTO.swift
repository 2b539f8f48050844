import Foundation
import OnwardCore

/// `createTrip`, `joinTrip`: a trip as its member sees it (the invitation code only for hosts).
public struct TripDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// ISO 8601 (UTC).
    public var endsAt: String
    /// `host` or `traveller`: the caller's role.
    public var role: String
    public var inviteCode: String?

    public init(id: String, name: String, endsAt: String, role: String, inviteCode: String?) {
        self.id = id; self.name = name; self.endsAt = endsAt; self.role = role; self.inviteCode = inviteCode
    }
}

/// `listTripMembers`.
public struct TripMembersDTO: Codable, Sendable, Equatable {
    public struct Member: Codable, Sendable, Equatable {
        public var id: String
        public var displayName: String
        public var role: String
        public init(id: String, displayName: String, role: String) { self.id = id; self.displayName = displayName; self.role = role }
    }

    public var members: [Member]
    public init(members: [Member]) { self.members = members }
}

/// `listVisiblePositions`: the positions the caller may see now.
public struct TripPositionsDTO: Codable, Sendable, Equatable {
    public struct Position: Codable, Sendable, Equatable {
        public var person: String
        public var latitude: Double
        public var longitude: Double
        public var accuracyMetres: Double
        /// ISO 8601 (UTC).
        public var at: String
        public var sharingUntil: String
        public init(person: String, latitude: Double, longitude: Double, accuracyMetres: Double, at: String, sharingUntil: String) {
            self.person = person; self.latitude = latitude; self.longitude = longitude; self.accuracyMetres = accuracyMetres
            self.at = at; self.sharingUntil = sharingUntil
        }
    }

    public var positions: [Position]
    public init(positions: [Position]) { self.positions = positions }
}

/// `createEvent`, `listEvents`: an event as one who may see it sees it.
public struct TripEventDTO: Codable, Sendable, Equatable {
    public var id: String
    public var tripId: String
    public var creator: String
    public var title: String
    /// ISO 8601 (UTC).
    public var at: String
    public var latitude: Double
    public var longitude: Double
    public var details: String
    public var invitees: [String]
    /// By person: `going`, `maybe` or `notGoing`.
    public var answers: [String: String]

    public init(id: String, tripId: String, creator: String, title: String, at: String, latitude: Double, longitude: Double, details: String,
                invitees: [String], answers: [String: String]) {
        self.id = id; self.tripId = tripId; self.creator = creator; self.title = title; self.at = at; self.latitude = latitude
        self.longitude = longitude; self.details = details; self.invitees = invitees; self.answers = answers
    }
}

public struct TripEventsDTO: Codable, Sendable, Equatable {
    public var events: [TripEventDTO]
    public init(events: [TripEventDTO]) { self.events = events }
}
