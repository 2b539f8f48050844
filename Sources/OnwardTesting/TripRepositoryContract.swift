import Foundation
import OnwardCore
import Storage
import Testing
import Trips

/// What every `TripRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum TripRepositoryContract {
    public typealias Check = ContractCheck<any TripRepository>

    static let t0 = Instant(epochSeconds: 1_790_000_000)

    static func trip(_ id: String, code: String, host: String = "hana") -> Trip {
        Trip(id: id, name: "Ski week ☃", endsAt: t0.adding(seconds: 86_400), host: host, inviteCode: code)
    }

    public static let checks: [Check] = [
        Check(name: "a trip reads back by ID and by code, and a member's trips list it; one who left no longer has it") { repo async throws in
            var t = try trip("t1", code: "SNOW").joining("tom", code: "SNOW")
            try await repo.saveTrip(t)
            try await repo.saveTrip(trip("t2", code: "SUN", host: "tom"))
            #expect(try await repo.trip(id: "t1") == t)
            #expect(try await repo.trip(inviteCode: "SNOW") == t)
            #expect(try await repo.trip(id: "nope") == nil)
            #expect(try await repo.trips(of: "tom").map(\.id) == ["t1", "t2"])
            t = try t.leaving("tom")
            try await repo.saveTrip(t)
            #expect(try await repo.trips(of: "tom").map(\.id) == ["t2"])
            #expect(try await repo.trips(of: "hana").map(\.id) == ["t1"])
        },
        Check(name: "an invitation code belongs to one trip") { repo async throws in
            try await repo.saveTrip(trip("t1", code: "SNOW"))
            await #expect(throws: StorageError.self) { try await repo.saveTrip(trip("t2", code: "SNOW")) }
            #expect(try await repo.trip(id: "t2") == nil)
        },
        Check(name: "a person's position on a trip is replaced by their next one; another trip's are apart") { repo async throws in
            try await repo.saveTrip(trip("t1", code: "A"))
            try await repo.saveTrip(trip("t2", code: "B"))
            let first = SharedPosition(person: "tom", latitude: 42.57, longitude: 1.48, accuracyMetres: 12, at: t0, sharingUntil: t0.adding(seconds: 900))
            var second = first
            second.latitude = 42.58
            second.paused = true
            try await repo.savePosition(first, trip: "t1")
            try await repo.savePosition(second, trip: "t1")
            try await repo.savePosition(first, trip: "t2")
            #expect(try await repo.positions(trip: "t1") == [second])
            #expect(try await repo.positions(trip: "t2") == [first])
        },
        Check(name: "events read back whole, soonest first, with their answers") { repo async throws in
            let t = try trip("t1", code: "A").joining("tom", code: "A")
            try await repo.saveTrip(t)
            func event(_ id: String, in seconds: Int64) throws -> TripEvent {
                try TripEvent(id: id, trip: t, creator: "hana", title: "Fondue \(id)", at: t0.adding(seconds: seconds), latitude: 42.5, longitude: 1.5,
                              details: "<b>bring</b> bread", audience: .chosen(["tom"]), positions: [], friendships: Friendships(), trips: [t], now: t0)
            }
            let later = try event("e2", in: 7200), sooner = try event("e1", in: 3600).answering("tom", .maybe, trip: t)
            try await repo.saveEvent(later)
            try await repo.saveEvent(sooner)
            #expect(try await repo.events(trip: "t1") == [sooner, later])
            #expect(try await repo.event(id: "e1")?.answers == ["tom": .maybe])
            #expect(try await repo.event(id: "nope") == nil)
        },
        Check(name: "chat messages are numbered per conversation and page backwards") { repo async throws in
            let trip = Conversation.trip("t1"), direct = Conversation.between("tom", "hana")
            for i in 1...12 { _ = try await repo.post("  message \(i)  ", by: i % 2 == 0 ? "tom" : "hana", at: t0.adding(seconds: Int64(i)), in: trip) }
            let dm = try await repo.post("just us", by: "tom", at: t0, in: direct)
            #expect(dm.sequence == 1)
            #expect(try await repo.messages(in: trip, before: nil, limit: 5).map(\.sequence) == [8, 9, 10, 11, 12])
            #expect(try await repo.messages(in: trip, before: 8, limit: 5).map(\.sequence) == [3, 4, 5, 6, 7])
            #expect(try await repo.messages(in: trip, before: 3, limit: 5).map(\.text) == ["message 1", "message 2"])
            #expect(try await repo.messages(in: Conversation.between("hana", "tom"), before: nil, limit: 10) == [dm])
            #expect(try await repo.messages(in: .trip("t2"), before: nil, limit: 10).isEmpty)
        },
        Check(name: "friendships read back as saved") { repo async throws in
            #expect(try await repo.friendships() == Friendships())
            var f = Friendships()
            f.request(from: "tom", to: "wes")
            f.request(from: "uma", to: "vic")
            f.accept(by: "vic", from: "uma")
            try await repo.saveFriendships(f)
            #expect(try await repo.friendships() == f)
        },
    ]
}
