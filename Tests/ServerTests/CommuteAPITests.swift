import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import OnwardCore
import OnwardTesting
import Server
import Services
import Storage
import StorageSQLite
import Synchronization
import Testing
import Transit
import TransitSources

/// Commuting mode over the API on the bundled network: Lebak Bulus to Bundaran HI, Monday
/// 23 November 2026 at 08:00 (the simulated live data of `TestServer`).
@Suite("commuting over the API", .timeLimit(.minutes(5)))
struct CommuteAPITests {
    /// A clock the test moves.
    final class Clock: Sendable {
        private let time = Mutex(TestServer.now)
        var now: Instant { time.withLock { $0 } }
        func set(_ t: Instant) { time.withLock { $0 = t } }
    }

    /// The test server, its commutes kept in `repository` and taken up from it (as a starting server does).
    static func deps(_ repository: any CommuteRepository, clock: Clock) async throws -> ServerDependencies {
        let deps = TestServer.deps(try TestServer.store(), now: { clock.now },
                                   commutes: { CommuteService(repository: repository, sources: $0, now: { clock.now }) })
        try await deps.commutes.load()
        return deps
    }

    static let start = #"{"from": "SLBB", "to": "SBHI", "date": "2026-11-23", "time": "08:00"}"#

    static func post(_ client: some TestClientProtocol, _ uri: String, _ body: String, method: HTTPRequest.Method = .post) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
    }

    static func decode<T: Decodable>(_ r: TestResponse, as: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(r.body.readableBytesView))
    }

    @Test("a commute is kept in storage: a restarted server carries it on, and says nothing twice")
    func survivesRestart() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let clock = Clock()
        let (id, journey) = try await TestServer.app(try await Self.deps(try SQLiteStore(directory: folder.path).commutes, clock: clock)).test(.router) { client in
            let r = try await Self.post(client, "/api/v1/commutes", Self.start)
            #expect(r.status == .created)
            let started: CommuteDTO = try Self.decode(r)
            let id = try #require(started.id)
            #expect(id.count >= 43)
            #expect(started.status == "active" && started.alerts.isEmpty && !started.simulated)
            let departure = started.journey.legs[0].departure
            // Ninety seconds before the train leaves, at the platform: "your train is arriving".
            let leaves = try #require(Instant(iso8601: departure))
            clock.set(leaves.adding(seconds: -90))
            let at = LocalTime(clock.now, in: TimeZone(identifier: "Asia/Jakarta")!).iso8601
            let seen = try await Self.post(client, "/api/v1/commutes/\(id)/sightings",
                                           #"{"at": "\#(at)", "lat": -6.2892744, "lon": 106.7749355, "accuracy": 20}"#)
            #expect(seen.status == .ok)
            #expect(try Self.decode(seen, as: CommuteAlertsDTO.self).alerts.map(\.kind) == ["vehicleArriving"])
            return (id, started.journey)
        }
        // A new server on the same data folder.
        try await TestServer.app(try await Self.deps(try SQLiteStore(directory: folder.path).commutes, clock: clock)).test(.router) { client in
            let view: CommuteDTO = try Self.decode(try await client.execute(uri: "/api/v1/commutes/\(id)", method: .get))
            #expect(view.id == nil)
            #expect(view.journey == journey)
            #expect(view.alerts.map(\.kind) == ["vehicleArriving"])
            // At Bundaran HI as the train gets there: "your stop", and the arriving train is not said again.
            let lastArrival = try #require(journey.legs.last?.arrival)
            let arrives = try #require(Instant(iso8601: lastArrival))
            clock.set(arrives)
            let seen = try await Self.post(client, "/api/v1/commutes/\(id)/sightings", #"{"lat": -6.1918644, "lon": 106.8230084, "accuracy": 10}"#)
            #expect(try Self.decode(seen, as: CommuteAlertsDTO.self).alerts.map(\.kind) == ["arrivingAtDestination"])
            let after: CommuteDTO = try Self.decode(try await client.execute(uri: "/api/v1/commutes/\(id)", method: .get))
            #expect(after.alerts.map(\.kind) == ["vehicleArriving", "arrivingAtDestination"])
        }
    }

    @Test("two servers that change one commute from the same state both land: the second applies its change to the first's")
    func raceBetweenServers() async throws {
        let repository = InMemoryCommuteRepository()
        let clock = Clock()
        let first = TestServer.app(try await Self.deps(repository, clock: clock))
        try await first.test(.router) { phone in
            let started: CommuteDTO = try Self.decode(try await Self.post(phone, "/api/v1/commutes", Self.start))
            let id = try #require(started.id)
            // The second server takes the commute up now and hears nothing of the first's change below,
            // as when a sighting there and a change here are stored in the same milliseconds.
            let second = TestServer.app(try await Self.deps(repository, clock: clock))
            let leaves = try #require(Instant(iso8601: started.journey.legs[0].departure))
            clock.set(leaves.adding(seconds: -90))
            let onPlatform = try await Self.post(phone, "/api/v1/commutes/\(id)/sightings", #"{"lat": -6.2892744, "lon": 106.7749355, "accuracy": 20}"#)
            #expect(try Self.decode(onPlatform, as: CommuteAlertsDTO.self).alerts.map(\.kind) == ["vehicleArriving"])
            let lastArrival = try #require(started.journey.legs.last?.arrival)
            let arrives = try #require(Instant(iso8601: lastArrival))
            clock.set(arrives)
            try await second.test(.router) { laptop in
                let there = try await Self.post(laptop, "/api/v1/commutes/\(id)/sightings", #"{"lat": -6.1918644, "lon": 106.8230084, "accuracy": 10}"#)
                #expect(there.status == .ok)
                #expect(try Self.decode(there, as: CommuteAlertsDTO.self).alerts.map(\.kind) == ["arrivingAtDestination"])
                let view: CommuteDTO = try Self.decode(try await laptop.execute(uri: "/api/v1/commutes/\(id)", method: .get))
                #expect(view.alerts.map(\.kind) == ["vehicleArriving", "arrivingAtDestination"])
            }
            // Storage holds both changes, one after the other.
            let stored = try #require(try await repository.record(id: id))
            #expect(stored.revision >= 2)
            let third = TestServer.app(try await Self.deps(repository, clock: clock))
            try await third.test(.router) { client in
                let view: CommuteDTO = try Self.decode(try await client.execute(uri: "/api/v1/commutes/\(id)", method: .get))
                #expect(view.alerts.map(\.kind) == ["vehicleArriving", "arrivingAtDestination"])
            }
        }
    }

    @Test("someone else's commute is a 404 everywhere, exactly like one that does not exist, and an ended one too")
    func privateByDefault() async throws {
        let clock = Clock()
        let app = TestServer.app(try await Self.deps(InMemoryCommuteRepository(), clock: clock))
        try await app.test(.router) { client in
            let started: CommuteDTO = try Self.decode(try await Self.post(client, "/api/v1/commutes", Self.start))
            let id = try #require(started.id)
            var guess = id
            guess.removeLast()
            guess += id.hasSuffix("A") ? "B" : "A"
            for other in [guess, "nope"] {
                let answers = [
                    try await client.execute(uri: "/api/v1/commutes/\(other)", method: .get),
                    try await Self.post(client, "/api/v1/commutes/\(other)/sightings", #"{"lat": 0, "lon": 0}"#),
                    try await client.execute(uri: "/api/v1/commutes/\(other)", method: .delete),
                    try await client.execute(uri: "/live?commute=\(other)", method: .get),
                ]
                for r in answers {
                    #expect(r.status == .notFound)
                    #expect(String(decoding: r.body.readableBytesView, as: UTF8.self).contains(#""code":"commute-not-found""#))
                }
            }
            #expect(try await client.execute(uri: "/api/v1/commutes/\(id)", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/api/v1/commutes/\(id)", method: .get).status == .notFound)
        }
    }

    @Test("bad input is a 400 naming what is wrong; an option that was not found is a 404 saying why")
    func badInput() async throws {
        let app = TestServer.app(try await Self.deps(InMemoryCommuteRepository(), clock: Clock()))
        try await app.test(.router) { client in
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("/api/v1/commutes", "[1, 2]", .badRequest, "body"),
                ("/api/v1/commutes", #"{"from": "SLBB"}"#, .badRequest, "to"),
                ("/api/v1/commutes", #"{"from": "SLBB", "to": "SBHI", "speed": 0, "simulate": true}"#, .badRequest, "speed"),
                ("/api/v1/commutes", #"{"from": "SLBB", "to": "SBHI", "simulate": "perhaps"}"#, .badRequest, "simulate"),
                ("/api/v1/commutes", #"{"from": "SLBB", "to": "SBHI", "date": "2026-11-23", "time": "08:00", "option": 99}"#, .notFound, "option"),
            ]
            for (uri, body, status, parameter) in cases {
                let r = try await Self.post(client, uri, body)
                #expect(r.status == status, "\(body)")
                let problem = try Self.decode(r, as: Problem.self)
                #expect(problem.parameter == parameter, "\(body): \(problem.detail)")
            }
            let id = try #require(try Self.decode(try await Self.post(client, "/api/v1/commutes", Self.start), as: CommuteDTO.self).id)
            let bad = try await Self.post(client, "/api/v1/commutes/\(id)/sightings", #"{"lat": 91, "lon": 0}"#)
            #expect(bad.status == .badRequest)
            #expect(try Self.decode(bad, as: Problem.self).parameter == "lat")
            // No push configured on this server: said plainly, not accepted and dropped.
            let push = try await Self.post(client, "/api/v1/commutes/\(id)/push",
                                           #"{"endpoint": "https://push.example/x", "keys": {"p256dh": "a", "auth": "b"}}"#, method: .put)
            #expect(push.status == .serviceUnavailable)
        }
    }

    @Test("the live channel sends the commute, takes positions, and sends each alert as it is given")
    func liveChannel() async throws {
        let clock = Clock()
        let app = TestServer.app(try await Self.deps(InMemoryCommuteRepository(), clock: clock))
        try await app.test(.live) { client in
            let response = try await Self.post(client, "/api/v1/commutes", Self.start)
            let started = try Self.decode(response, as: CommuteDTO.self)
            let id = started.id ?? ""
            let leaves = Instant(iso8601: started.journey.legs[0].departure) ?? TestServer.now
            clock.set(leaves.adding(seconds: -60))
            try await client.ws("/live?commute=\(id)") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                let m1 = try await messages.next()
                guard case .text(let first)? = m1 else { Issue.record("not text"); return }
                #expect(first.contains(#""type":"commute""#) && !first.contains(id))
                try await outbound.write(.text(#"{"lat": -6.2892744, "lon": 106.7749355, "accuracy": 20}"#))
                let m2 = try await messages.next()
                guard case .text(let alert)? = m2 else { Issue.record("not text"); return }
                #expect(alert.contains(#""type":"alert""#) && alert.contains(#""kind":"vehicleArriving""#))
                try await outbound.write(.text(#"{"lat": "north"}"#))
                let m3 = try await messages.next()
                guard case .text(let error)? = m3 else { Issue.record("not text"); return }
                #expect(error.contains(#""type":"error""#))
            }
        }
    }

    @Test("the access log never prints a commute's ID")
    func idNotLogged() {
        #expect(AccessLogMiddlewarePath.logged("/api/v1/commutes/SECRET") == "/api/v1/commutes/{commuteId}")
        #expect(AccessLogMiddlewarePath.logged("/api/v1/commutes/SECRET/sightings") == "/api/v1/commutes/{commuteId}/sightings")
        #expect(AccessLogMiddlewarePath.logged("/api/v1/commutes") == "/api/v1/commutes")
    }
}
