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

/// `listMyTrips`.
public struct TripsDTO: Codable, Sendable, Equatable {
    public var trips: [TripDTO]
    public init(trips: [TripDTO]) { self.trips = trips }
}

/// One chat message as its readers see it.
public struct ChatMessageDTO: Codable, Sendable, Equatable {
    /// Counts up from 1 within the conversation.
    public var sequence: Int
    public var author: String
    public var authorName: String
    /// Plain text: pages escape it.
    public var text: String
    /// ISO 8601 (UTC).
    public var at: String
    public init(sequence: Int, author: String, authorName: String, text: String, at: String) {
        self.sequence = sequence; self.author = author; self.authorName = authorName; self.text = text; self.at = at
    }
}

/// `listChat`: a page of messages, oldest first, before `before` (the newest when absent).
public struct ChatPageDTO: Codable, Sendable, Equatable {
    /// `trip:<tripId>` or `person:<personId>`.
    public var conversation: String
    public var messages: [ChatMessageDTO]
    /// Whether older messages exist before this page.
    public var more: Bool
    /// Messages of others the caller has not marked read.
    public var unread: Int
    public init(conversation: String, messages: [ChatMessageDTO], more: Bool, unread: Int) {
        self.conversation = conversation; self.messages = messages; self.more = more; self.unread = unread
    }
}

/// `listConversations`: every conversation open to the caller, with its unread count.
public struct ConversationsDTO: Codable, Sendable, Equatable {
    public struct Conversation: Codable, Sendable, Equatable {
        public var conversation: String
        /// The trip's name or the friend's display name.
        public var title: String
        public var unread: Int
        public init(conversation: String, title: String, unread: Int) { self.conversation = conversation; self.title = title; self.unread = unread }
    }
    public var conversations: [Conversation]
    public init(conversations: [Conversation]) { self.conversations = conversations }
}

/// `getProfile`, `updateProfile`: a person as a friend sees them.
public struct ProfileDTO: Codable, Sendable, Equatable {
    public var id: String
    public var displayName: String
    public var bio: String
    /// Where the photo is (`/api/v1/people/<id>/photo`), when there is one.
    public var photo: String?
    /// The trips the viewer shares with them (all of their own trips for oneself).
    public var trips: [String]
    public init(id: String, displayName: String, bio: String, photo: String?, trips: [String]) {
        self.id = id; self.displayName = displayName; self.bio = bio; self.photo = photo; self.trips = trips
    }
}

/// `listFriends`: friends (by a shared trip or an accepted request) and requests waiting.
public struct FriendsDTO: Codable, Sendable, Equatable {
    public struct Person: Codable, Sendable, Equatable {
        public var id: String
        public var displayName: String
        public init(id: String, displayName: String) { self.id = id; self.displayName = displayName }
    }
    public var friends: [Person]
    /// Asked the caller; `acceptFriend` answers.
    public var incoming: [Person]
    /// The caller asked; waiting.
    public var outgoing: [Person]
    public init(friends: [Person], incoming: [Person], outgoing: [Person]) { self.friends = friends; self.incoming = incoming; self.outgoing = outgoing }
}

/// `requestFriend`, `acceptFriend`: where a friendship stands.
public struct FriendshipDTO: Codable, Sendable, Equatable {
    /// `requested` (waiting for the other) or `friends`.
    public var status: String
    public init(status: String) { self.status = status }
}

/// `sendBroadcast`, `listBroadcasts`.
public struct BroadcastDTO: Codable, Sendable, Equatable {
    public var id: String
    public var tripId: String
    public var host: String
    public var text: String
    /// ISO 8601 (UTC).
    public var at: String
    public init(id: String, tripId: String, host: String, text: String, at: String) {
        self.id = id; self.tripId = tripId; self.host = host; self.text = text; self.at = at
    }
}

/// `sendBroadcast`: the broadcast and how many members each way reaches besides the app.
public struct BroadcastSentDTO: Codable, Sendable, Equatable {
    public var broadcast: BroadcastDTO
    /// Members (besides the host) who see it in the app.
    public var app: Int
    public var push: Int
    public var telegram: Int
    public init(broadcast: BroadcastDTO, app: Int, push: Int, telegram: Int) {
        self.broadcast = broadcast; self.app = app; self.push = push; self.telegram = telegram
    }
}

public struct BroadcastsDTO: Codable, Sendable, Equatable {
    public var broadcasts: [BroadcastDTO]
    public init(broadcasts: [BroadcastDTO]) { self.broadcasts = broadcasts }
}
