import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
import Server
import Services
import Storage
import Synchronization
import Testing

/// Group trips over the API: joining by code, members, and the map's privacy rules at the HTTP edge.
@Suite("trips over the API", .timeLimit(.minutes(5)))
struct TripAPITests {
    final class Clock: Sendable {
        private let time = Mutex(TestServer.now)
        var now: Instant { time.withLock { $0 } }
        func advance(_ seconds: Int64) { time.withLock { $0 = $0.adding(seconds: seconds) } }
    }

    static func deps(_ clock: Clock) throws -> ServerDependencies {
        try PeopleAPITests.deps().replacing(trips: { TripService(repository: InMemoryTripRepository(), people: $0, now: { clock.now }) })
    }

    static func until(_ clock: Clock, _ seconds: Int64) -> String { clock.now.adding(seconds: seconds).description }

    @Test("a host makes a trip, travellers join by code; to anyone else the trip does not exist")
    func joinAndPrivacy() async throws {
        let clock = Clock()
        try await TestServer.app(try Self.deps(clock)).test(.router) { client in
            let hana = try await PeopleAPITests.signUp(client, "hana"), tom = try await PeopleAPITests.signUp(client, "tom")
            let wes = try await PeopleAPITests.signUp(client, "wes")
            let made = try await PeopleAPITests.send(client, .post, "/api/v1/trips", #"{"name": "Ski week", "endsAt": "\#(Self.until(clock, 7 * 86_400))"}"#, token: hana)
            #expect(made.status == .created)
            let trip = try PeopleAPITests.decode(made, as: TripDTO.self)
            let code = try #require(trip.inviteCode)
            #expect(trip.role == "host" && code.count == 8)
            let joined = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .post, "/api/v1/trips/join", #"{"code": "\#(code.lowercased())"}"#, token: tom),
                                                   as: TripDTO.self)
            #expect(joined.id == trip.id && joined.role == "traveller" && joined.inviteCode == nil)
            let members = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/members", token: tom),
                                                    as: TripMembersDTO.self)
            #expect(members.members.map(\.displayName).sorted() == ["hana", "tom"])
            // Wes is not on it: everything of the trip answers as for a trip that does not exist.
            let wrongCode = try await PeopleAPITests.send(client, .post, "/api/v1/trips/join", #"{"code": "NOTACODE"}"#, token: wes)
            #expect(wrongCode.status == .notFound)
            for (method, path, body) in [(HTTPRequest.Method.get, "members", nil), (.get, "positions", nil),
                                         (.put, "position", #"{"latitude": 42.57, "longitude": 1.48, "accuracy": 10, "sharingUntil": "\#(Self.until(clock, 900))"}"#),
                                         (.post, "position/pause", #"{"paused": true}"#)] as [(HTTPRequest.Method, String, String?)] {
                let theirs = try await PeopleAPITests.send(client, method, "/api/v1/trips/\(trip.id)/\(path)", body, token: wes)
                let none = try await PeopleAPITests.send(client, method, "/api/v1/trips/0123456789abcdef0123456789abcdef/\(path)", body, token: wes)
                var a = try PeopleAPITests.problem(theirs), b = try PeopleAPITests.problem(none)
                a.instance = nil; b.instance = nil
                #expect(theirs.status == .notFound && a == b, "\(method) \(path)")
            }
            #expect(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/members").status == .unauthorized)
            // A trip that has already ended cannot be made.
            let past = try await PeopleAPITests.send(client, .post, "/api/v1/trips", #"{"name": "Last year", "endsAt": "2025-01-01T00:00:00Z"}"#, token: hana)
            #expect(past.status == .conflict)
        }
    }

    @Test("the map over the API: hosts see everyone sharing, travellers within their radius, never paused or ended")
    func map() async throws {
        let clock = Clock()
        try await TestServer.app(try Self.deps(clock)).test(.router) { client in
            let hana = try await PeopleAPITests.signUp(client, "hana"), tom = try await PeopleAPITests.signUp(client, "tom")
            let uma = try await PeopleAPITests.signUp(client, "uma")
            let trip = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .post, "/api/v1/trips",
                                                                               #"{"name": "Ski week", "endsAt": "\#(Self.until(clock, 86_400))"}"#, token: hana),
                                                 as: TripDTO.self)
            for t in [tom, uma] { _ = try await PeopleAPITests.send(client, .post, "/api/v1/trips/join", #"{"code": "\#(trip.inviteCode!)"}"#, token: t) }
            func share(_ token: String, _ lat: Double, for seconds: Int64 = 900) async throws {
                let r = try await PeopleAPITests.send(client, .put, "/api/v1/trips/\(trip.id)/position",
                                                      #"{"latitude": \#(lat), "longitude": 1.4799, "accuracy": 12, "sharingUntil": "\#(Self.until(clock, seconds))"}"#, token: token)
                #expect(r.status == .noContent)
            }
            func seen(_ token: String, radius: Int? = nil) async throws -> [String] {
                let r = try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/positions" + (radius.map { "?radius=\($0)" } ?? ""), token: token)
                return try PeopleAPITests.decode(r, as: TripPositionsDTO.self).positions.map(\.person)
            }
            let ids = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/members", token: hana),
                                                as: TripMembersDTO.self).members.reduce(into: [String: String]()) { $0[$1.displayName] = $1.id }
            try await share(tom, 42.5768)
            try await share(uma, 42.5800)
            try await share(hana, 42.6200)
            #expect(try await seen(hana).sorted() == [ids["tom"]!, ids["uma"]!].sorted())
            #expect(try await seen(tom) == [ids["uma"]!])
            #expect(try await seen(tom, radius: 300).isEmpty)
            // Uma pauses: nobody sees her; she resumes: she is back.
            _ = try await PeopleAPITests.send(client, .post, "/api/v1/trips/\(trip.id)/position/pause", #"{"paused": true}"#, token: uma)
            let tomSees = try await seen(tom), hanaSees = try await seen(hana)
            #expect(tomSees.isEmpty && !hanaSees.contains(ids["uma"]!))
            _ = try await PeopleAPITests.send(client, .post, "/api/v1/trips/\(trip.id)/position/pause", #"{"paused": false}"#, token: uma)
            #expect(try await seen(tom) == [ids["uma"]!])
            // An end already past stops sharing at once.
            try await share(hana, 42.6200, for: -1)
            #expect(!(try await seen(tom, radius: 10_000)).contains(ids["hana"]!))
            // Sharing ends when the person said: 15 minutes later, nobody is on anyone's map.
            clock.advance(901)
            #expect(try await seen(hana).isEmpty)
            #expect(try await seen(tom).isEmpty)
        }
    }
}

@Suite("trip events over the API", .timeLimit(.minutes(5)))
struct TripEventAPITests {
    @Test("an event reaches whom it names; only they see it and answer it; an answer from anyone else is a 404 like no event")
    func events() async throws {
        let clock = TripAPITests.Clock()
        try await TestServer.app(try TripAPITests.deps(clock)).test(.router) { client in
            let hana = try await PeopleAPITests.signUp(client, "hana"), tom = try await PeopleAPITests.signUp(client, "tom")
            let uma = try await PeopleAPITests.signUp(client, "uma"), wes = try await PeopleAPITests.signUp(client, "wes")
            let trip = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .post, "/api/v1/trips",
                                                                               #"{"name": "Ski week", "endsAt": "\#(TripAPITests.until(clock, 86_400))"}"#, token: hana),
                                                 as: TripDTO.self)
            for t in [tom, uma] { _ = try await PeopleAPITests.send(client, .post, "/api/v1/trips/join", #"{"code": "\#(trip.inviteCode!)"}"#, token: t) }
            let ids = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/members", token: hana),
                                                as: TripMembersDTO.self).members.reduce(into: [String: String]()) { $0[$1.displayName] = $1.id }
            let body = #"{"title": "Fondue", "at": "\#(TripAPITests.until(clock, 7200))", "latitude": 42.5768, "longitude": 1.4799, "details": "<b>Bring</b> bread", "audience": "chosen", "people": ["\#(ids["tom"]!)"]}"#
            let made = try await PeopleAPITests.send(client, .post, "/api/v1/trips/\(trip.id)/events", body, token: hana)
            #expect(made.status == .created)
            let event = try PeopleAPITests.decode(made, as: TripEventDTO.self)
            #expect(event.invitees == [ids["tom"]!] && event.details == "<b>Bring</b> bread")
            let rsvp = "/api/v1/trips/\(trip.id)/events/\(event.id)/rsvp"
            let going = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .put, rsvp, #"{"answer": "going"}"#, token: tom), as: TripEventDTO.self)
            #expect(going.answers == [ids["tom"]!: "going"])
            // The host (who sent it) sees the answer; Uma, not invited, sees no event and her answer is a 404 like no event at all.
            let hosts = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: hana), as: TripEventsDTO.self)
            #expect(hosts.events.map(\.answers) == [[ids["tom"]!: "going"]])
            let umas = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: uma), as: TripEventsDTO.self)
            #expect(umas.events.isEmpty)
            let notInvited = try await PeopleAPITests.send(client, .put, rsvp, #"{"answer": "going"}"#, token: uma)
            let noEvent = try await PeopleAPITests.send(client, .put, "/api/v1/trips/\(trip.id)/events/nope/rsvp", #"{"answer": "going"}"#, token: uma)
            var a = try PeopleAPITests.problem(notInvited), b = try PeopleAPITests.problem(noEvent)
            a.instance = nil; b.instance = nil
            #expect(notInvited.status == .notFound && a == b)
            // Wes is not on the trip: its events do not exist for him.
            #expect(try await PeopleAPITests.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: wes).status == .notFound)
            #expect(try await PeopleAPITests.send(client, .put, rsvp, #"{"answer": "maybe"}"#, token: wes).status == .notFound)
            // Friends only: everyone else on the trip (trip-mates are friends).
            let friends = try await PeopleAPITests.send(client, .post, "/api/v1/trips/\(trip.id)/events",
                                                        body.replacingOccurrences(of: #""audience": "chosen""#, with: #""audience": "friends""#), token: hana)
            #expect(try PeopleAPITests.decode(friends, as: TripEventDTO.self).invitees.sorted() == [ids["tom"]!, ids["uma"]!].sorted())
        }
    }
}
