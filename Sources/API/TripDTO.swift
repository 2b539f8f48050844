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
