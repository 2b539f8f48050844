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

    /// Runs `body` `n` times at once. As many reads at once come first, so a driver with a pool of
    /// connections has them open and the changes really overlap (they would otherwise queue for the first one).
    static func atOnce(_ n: Int, warmUp: @escaping @Sendable () async throws -> Void,
                       _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<n { group.addTask { try await warmUp() } }
            try await group.waitForAll()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<n { group.addTask { try await body(i) } }
            try await group.waitForAll()
        }
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
        Check(name: "a trip changes in one step: forty people joining at once are all on it") { repo async throws in
            try await repo.saveTrip(trip("t1", code: "SNOW"))
            try await atOnce(40, warmUp: { _ = try await repo.trip(id: "t1") }) { i in
                _ = try await repo.updateTrip(id: "t1") { t in t = (try? t.joining("p\(i)", code: "SNOW")) ?? t }
            }
            #expect(try await repo.trip(id: "t1")?.members.count == 41)
            #expect(try await repo.trips(of: "p7").map(\.id) == ["t1"])
            #expect(try await repo.updateTrip(id: "nope") { _ in true } == nil)
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
        Check(name: "an event changes in one step: answers given at once are all kept") { repo async throws in
            var t = trip("t1", code: "A")
            for i in 0..<30 { t = try t.joining("p\(i)", code: "A") }
            try await repo.saveTrip(t)
            let e = try TripEvent(id: "e1", trip: t, creator: "hana", title: "Fondue", at: t0, latitude: 42.5, longitude: 1.5, details: "",
                                  audience: .friends, positions: [], friendships: Friendships(), trips: [t], now: t0)
            try await repo.saveEvent(e)
            let members = t
            try await atOnce(30, warmUp: { _ = try await repo.event(id: "e1") }) { i in
                _ = try await repo.updateEvent(id: "e1") { e in e = (try? e.answering("p\(i)", .going, trip: members)) ?? e }
            }
            #expect(try await repo.event(id: "e1")?.answers.count == 30)
            #expect(try await repo.updateEvent(id: "nope") { _ in true } == nil)
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
        Check(name: "unread counts follow each reader's mark (an author has read up to their own message), never backwards") { repo async throws in
            let c = Conversation.trip("t1")
            for i in 1...4 { _ = try await repo.post("m\(i)", by: i == 3 ? "tom" : "hana", at: t0, in: c) }
            #expect(try await repo.unread(in: c, by: "uma") == 4)
            #expect(try await repo.unread(in: c, by: "tom") == 1)
            #expect(try await repo.unread(in: c, by: "hana") == 0)
            try await repo.markRead(in: c, by: "uma", upTo: 2)
            #expect(try await repo.unread(in: c, by: "uma") == 2)
            try await repo.markRead(in: c, by: "uma", upTo: 1)
            #expect(try await repo.unread(in: c, by: "uma") == 2)
            try await repo.markRead(in: c, by: "uma", upTo: 99)
            #expect(try await repo.unread(in: c, by: "uma") == 0)
            _ = try await repo.post("m5", by: "hana", at: t0, in: c)
            #expect(try await repo.unread(in: c, by: "uma") == 1)
            #expect(try await repo.unread(in: c, by: "tom") == 2)
            #expect(try await repo.unread(in: .trip("t2"), by: "tom") == 0)
        },
        Check(name: "friendships change in one step and read back, each person's alone") { repo async throws in
            #expect(try await repo.friendships(of: ["tom"]) == Friendships())
            try await repo.updateFriendships(of: ["tom", "wes"]) { $0.request(from: "tom", to: "wes") }
            try await repo.updateFriendships(of: ["uma", "vic"]) { $0.request(from: "uma", to: "vic") }
            #expect(try await repo.updateFriendships(of: ["vic", "uma"]) { $0.accept(by: "vic", from: "uma") })
            #expect(!(try await repo.updateFriendships(of: ["vic", "uma"]) { $0.accept(by: "vic", from: "uma") }))
            var f = Friendships()
            f.request(from: "tom", to: "wes")
            f.request(from: "uma", to: "vic")
            f.accept(by: "vic", from: "uma")
            #expect(try await repo.friendships(of: ["tom", "wes", "uma", "vic"]) == f)
            // One person's: only what involves them.
            #expect(try await repo.friendships(of: ["vic"]) == f.involving(["vic"]))
            #expect(try await repo.friendships(of: ["wes"]).requests == [Friendships.Request(from: "tom", to: "wes")])
            #expect(try await repo.friendships(of: ["wes"]).accepted.isEmpty)
            #expect(try await repo.friendships(of: ["nobody"]) == Friendships())
            // A change sees only its people's: another's stay as they were.
            try await repo.updateFriendships(of: ["tom"]) { $0.forget("tom") }
            #expect(try await repo.friendships(of: ["tom", "wes", "uma", "vic"]) == f.involving(["uma", "vic"]))
            // Many at once: none is lost.
            try await atOnce(20, warmUp: { _ = try await repo.friendships(of: ["hana"]) }) { i in
                try await repo.updateFriendships(of: ["p\(i)", "hana"]) { $0.request(from: "p\(i)", to: "hana") }
            }
            #expect(try await repo.friendships(of: ["hana"]).requests.count == 20)
            // Two who ask each other at the same moment become friends, never two waiting requests.
            try await atOnce(2, warmUp: { _ = try await repo.friendships(of: ["ines"]) }) { i in
                let (me, other) = i == 0 ? ("ines", "jo") : ("jo", "ines")
                try await repo.updateFriendships(of: [me, other]) { $0.request(from: me, to: other) }
            }
            let pair = try await repo.friendships(of: ["ines"])
            #expect(pair.accepted == [Friendships.Pair("ines", "jo")] && pair.requests.isEmpty)
        },
        Check(name: "forgetting a person removes their profile, positions, read marks and friendships, and no one else's") { repo async throws in
            try await repo.saveTrip(trip("t1", code: "A"))
            for who in ["tom", "uma"] {
                try await repo.saveProfile(Profile(person: who, bio: who))
                try await repo.savePosition(SharedPosition(person: who, latitude: 42.5, longitude: 1.5, accuracyMetres: 5, at: t0, sharingUntil: t0.adding(seconds: 60)), trip: "t1")
            }
            _ = try await repo.post("hi", by: "uma", at: t0, in: .trip("t1"))
            try await repo.markRead(in: .trip("t1"), by: "tom", upTo: 1)
            try await repo.updateFriendships(of: ["tom", "uma", "vic"]) { $0.request(from: "tom", to: "vic"); $0.request(from: "uma", to: "vic") }
            try await repo.forget(person: "tom")
            #expect(try await repo.profile(person: "tom") == nil)
            #expect(try await repo.profile(person: "uma")?.bio == "uma")
            #expect(try await repo.positions(trip: "t1").map(\.person) == ["uma"])
            #expect(try await repo.unread(in: .trip("t1"), by: "tom") == 1)
            #expect(try await repo.friendships(of: ["tom", "uma", "vic"]).requests == [Friendships.Request(from: "uma", to: "vic")])
        },
        Check(name: "a profile reads back whole; broadcasts newest first, per trip") { repo async throws in
            #expect(try await repo.profile(person: "tom") == nil)
            let photo = try Profile.Photo.checked(Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])).get()
            let p = Profile(person: "tom", bio: "Snowboard <3", photo: photo, push: Data("{}".utf8))
            try await repo.saveProfile(p)
            #expect(try await repo.profile(person: "tom") == p)
            try await repo.saveTrip(trip("t1", code: "A"))
            try await repo.saveTrip(trip("t2", code: "B"))
            let b1 = Broadcast(id: "b1", tripId: "t1", host: "hana", text: "Lifts close at 4", at: t0)
            let b2 = Broadcast(id: "b2", tripId: "t1", host: "hana", text: "Dinner at 8", at: t0.adding(seconds: 60))
            let b3 = Broadcast(id: "b3", tripId: "t2", host: "tom", text: "Other trip", at: t0)
            for b in [b1, b2, b3] { try await repo.saveBroadcast(b) }
            #expect(try await repo.broadcasts(trip: "t1", limit: 10) == [b2, b1])
            #expect(try await repo.broadcasts(trip: "t1", limit: 1) == [b2])
        },
    ]
}
