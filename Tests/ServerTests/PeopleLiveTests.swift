import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import HummingbirdWSTesting
import OnwardCore
import Server
import Storage
import GTFSRealtime
import GTFSSource
import Services
import Synchronization
import Testing

/// A person's routes over the live WebSocket: every device sees a change made on another.
@Suite("people's routes live", .timeLimit(.minutes(5)))
struct PeopleLiveTests {
    static func bearer(_ token: String) -> WebSocketClientConfiguration {
        var c = WebSocketClientConfiguration()
        c.additionalHeaders = [.authorization: "Bearer \(token)"]
        return c
    }

    static func routes(_ message: WebSocketMessage?) throws -> RoutesMessage {
        guard case .text(let text)? = message else { throw CancellationError() }
        return try JSONDecoder().decode(RoutesMessage.self, from: Data(text.utf8))
    }

    @Test("two connections of one person see each other's changes; another person's sees none of them")
    func twoDevices() async throws {
        let deps = try PeopleAPITests.deps()
        try await TestServer.app(deps).test(.live) { client in
            let ana = try await PeopleAPITests.signUp(client, "ana"), bob = try await PeopleAPITests.signUp(client, "bob")
            let (phoneReady, phoneReadyNow) = AsyncStream<Void>.makeStream()
            async let phone: [RoutesMessage] = {
                let seen = Mutex<[RoutesMessage]>([])
                try await client.ws("/live?me", configuration: Self.bearer(ana)) { inbound, _, _ in
                    var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    for i in 0..<3 {
                        let m = try Self.routes(try await messages.next())
                        seen.withLock { $0.append(m) }
                        if i == 0 { phoneReadyNow.yield() }
                    }
                }
                return seen.withLock { $0 }
            }()
            var ready = phoneReady.makeAsyncIterator()
            await ready.next()
            // Bob's socket gets his own (empty) state and nothing of Ana's.
            try await client.ws("/live?me", configuration: Self.bearer(bob)) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                #expect(try Self.routes(try await messages.next()).version == 0)
                // The laptop: makes a change, and sees it too.
                try await client.ws("/live?me", configuration: Self.bearer(ana)) { inbound, _, _ in
                    var laptop = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    #expect(try Self.routes(try await laptop.next()).version == 0)
                    let r = try await PeopleAPITests.send(client, .post, "/api/v1/me/routes", PeopleAPITests.blokM, token: ana)
                    #expect(r.status == .created)
                    let made = try Self.routes(try await laptop.next())
                    #expect(made.version == 1 && made.stacks.count == 1)
                    let id = try #require(made.currentRouteId)
                    _ = try await PeopleAPITests.send(client, .patch, "/api/v1/me/routes/\(id)", #"{"version": 1, "name": "Office"}"#, token: ana)
                    #expect(try Self.routes(try await laptop.next()).stacks.first?.route.name == "Office")
                }
            }
            let seen = try await phone
            #expect(seen.map(\.version) == [0, 1, 2])
            #expect(seen.last?.stacks.first?.route.name == "Office")
        }
    }

    @Test("signing out everywhere closes the person's live connections")
    func signOutCloses() async throws {
        try await TestServer.app(try PeopleAPITests.deps()).test(.live) { client in
            let ana = try await PeopleAPITests.signUp(client, "ana")
            try await client.ws("/live?me", configuration: Self.bearer(ana)) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                #expect(try Self.routes(try await messages.next()).version == 0)
                let out = try await PeopleAPITests.send(client, .delete, "/api/v1/sessions/current?everywhere=true", token: ana)
                #expect(out.status == .noContent)
                // The server ends the connection: no further message, the stream finishes.
                #expect(try await messages.next() == nil)
            }
        }
    }

    @Test("signing out one session closes that session's live connections (routes and trip map) at once, and no other session's")
    func signOutOneSession() async throws {
        try await TestServer.app(try TripAPITests.deps(TripAPITests.Clock())).test(.live) { client in
            let phone = try await PeopleAPITests.signUp(client, "ana")
            let signIn = try await PeopleAPITests.send(client, .post, "/api/v1/sessions", #"{"username": "ana", "password": "correct horse battery"}"#)
            let laptop = try PeopleAPITests.decode(signIn, as: SignedInDTO.self).token
            let trip = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .post, "/api/v1/trips",
                                                                             #"{"name": "Ski week", "endsAt": "2026-11-30T08:00:00+07:00"}"#, token: phone),
                                                 as: TripDTO.self)
            try await client.ws("/live?me", configuration: Self.bearer(laptop)) { laptopInbound, _, _ in
                var laptopMessages = laptopInbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                #expect(try Self.routes(try await laptopMessages.next()).version == 0)
                try await TripLiveTests.live(client, trip.id, phone) { tripSocket, _ in
                    try await client.ws("/live?me", configuration: Self.bearer(phone)) { inbound, _, _ in
                        var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                        #expect(try Self.routes(try await messages.next()).version == 0)
                        let out = try await PeopleAPITests.send(client, .delete, "/api/v1/sessions/current", token: phone)
                        #expect(out.status == .noContent)
                        // The phone's connections end with no further message.
                        #expect(try await messages.next() == nil)
                        #expect(try await tripSocket.next() == nil)
                    }
                }
                // The laptop's session goes on: its connection hears the next change.
                #expect(try await PeopleAPITests.send(client, .post, "/api/v1/me/routes", PeopleAPITests.blokM, token: laptop).status == .created)
                #expect(try Self.routes(try await laptopMessages.next()).version == 1)
            }
        }
    }

    @Test("without credentials, or with ended ones, /live?me is refused")
    func refused() async throws {
        try await TestServer.app(try PeopleAPITests.deps()).test(.live) { client in
            let none = try await client.execute(uri: "/live?me", method: .get,
                                                headers: [.upgrade: "websocket", .connection: "Upgrade", .secWebSocketVersion: "13",
                                                          .secWebSocketKey: "dGhlIHNhbXBsZSBub25jZQ=="])
            #expect(none.status == .unauthorized)
            await #expect(throws: (any Error).self) {
                try await client.ws("/live?me", configuration: Self.bearer("made-up")) { _, _, _ in }
            }
        }
    }
}

/// A watched journey's notice reaches its person's live connections as it is given, and no one else's.
@Suite("watched journeys live", .timeLimit(.minutes(5)))
struct WatchLiveTests {
    @Test("a cancellation of a watched train is told on /live?me to its watcher, once")
    func cancellationLive() async throws {
        let store = try TestServer.store()
        let deps = TestServer.deps(store, people: PeopleService(repository: InMemoryPeopleRepository(), hasher: PasswordHasher(cost: 4),
                                                                now: { TestServer.now }))
        try await TestServer.app(deps).test(.live) { client in
            let ana = try await PeopleAPITests.signUp(client, "ana")
            // The next train from Lebak Bulus, watched from now (08:00; it leaves within the half hour the watch looks ahead).
            let journeys = try await PeopleAPITests.send(client, .get, "/api/v1/journeys?from=SLBB&to=SBHI")
            let answer = try JSONDecoder().decode(JourneysDTO.self, from: Data(journeys.body.readableBytesView))
            let option = try #require(answer.journeys.first)
            let tripID = try #require(option.legs.first { $0.tripId != nil }?.tripId)
            let created = try await PeopleAPITests.send(client, .post, "/api/v1/me/watches",
                                                        #"{"from": "SLBB", "to": "SBHI", "departure": "\#(option.departure)"}"#, token: ana)
            #expect(created.status == .created)
            try await client.ws("/live?me", configuration: PeopleLiveTests.bearer(ana)) { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try PeopleLiveTests.routes(try await messages.next())
                // The line cancels the train (its trip ID without the source's prefix, as the feed names it).
                var feed = TransitRealtime_FeedMessage()
                feed.header.gtfsRealtimeVersion = "2.0"
                feed.header.timestamp = UInt64(TestServer.now.epochSeconds)
                var entity = TransitRealtime_FeedEntity()
                entity.id = "cancel"
                entity.tripUpdate.trip.tripID = String(tripID.drop { $0 != ":" }.dropFirst())
                entity.tripUpdate.trip.scheduleRelationship = .canceled
                feed.entity = [entity]
                let source = try #require(store.current.sources.keys.first)
                await RealtimeWriter(store: store).apply(RealtimeMessage(feed), source: source, now: TestServer.now)
                let watches = try #require(deps.watches)
                let sent = await watches.check()
                #expect(sent.map(\.notice.kind) == ["cancelled"])
                guard case .text(let text)? = try await messages.next() else { throw CancellationError() }
                let message = try JSONDecoder().decode(WatchNoticeMessage.self, from: Data(text.utf8))
                #expect(message.type == "watchNotice" && message.notice.kind == "cancelled" && message.notice.message.contains("is cancelled"))
                #expect(await watches.check().isEmpty)
            }
        }
    }
}
