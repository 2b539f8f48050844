import API
import Foundation
import OnwardCore
import Storage
import Trips

/// A host's notification to everyone on the trip: in the app (live and listed), by Web Push and by Telegram.
extension TripService {
    public func broadcast(_ id: String, by person: String, text: String) async throws -> BroadcastSentDTO {
        let trip = try await trip(id, for: person)
        guard trip.isHost(person) else {
            throw ServiceError(.hostsOnly, "Only a host of the trip can broadcast to it.")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...Broadcast.maxLength).contains(trimmed.count) else {
            throw PeopleService.invalid("text must be 1 to \(Broadcast.maxLength) characters", "text")
        }
        let b = Broadcast(id: Secrets.id(), tripId: id, host: person, text: trimmed, at: now())
        try await repository.saveBroadcast(b)
        hub.publish(.broadcast(b))
        let reach = await notifier.broadcast(b, trip: trip)
        return BroadcastSentDTO(broadcast: Self.dto(b), app: trip.members.count - 1, push: reach.push, telegram: reach.telegram)
    }

    public func broadcasts(_ id: String, for person: String) async throws -> BroadcastsDTO {
        _ = try await trip(id, for: person)
        return BroadcastsDTO(broadcasts: try await repository.broadcasts(trip: id, limit: 50).map(Self.dto))
    }

    public static func dto(_ b: Broadcast) -> BroadcastDTO { BroadcastDTO(id: b.id, tripId: b.tripId, host: b.host, text: b.text, at: b.at.description) }
}
