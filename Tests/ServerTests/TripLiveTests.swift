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
import Testing

/// The trip's live channel (`/live?trip=ID`): the map's privacy rules, events, RSVPs, chat and leaving, over a real WebSocket.
@Suite("trips live", .timeLimit(.minutes(5)))
struct TripLiveTests {
    typealias P = PeopleAPITests

    /// One message from the server, as loose JSON.
    struct Message: Decodable {
        var type: String
        var person: String?
        var position: TripPositionsDTO.Position?
        var positions: [TripPositionsDTO.Position]?
        var event: TripEventDTO?
        var conversation: String?
        var message: ChatMessageDTO?
        var broadcast: BroadcastDTO?
    }

    /// One client's messages, read by one test task at a time (nested sockets are read in turn, never at once).
    final class Socket: @unchecked Sendable {
        var iterator: WebSocketInboundMessageStream.AsyncIterator
        init(iterator: WebSocketInboundMessageStream.AsyncIterator) { self.iterator = iterator }
        func next() async throws -> Message? {
            guard let m = try await iterator.next() else { return nil }
            guard case .text(let text) = m else { throw CancellationError() }
            return try JSONDecoder().decode(Message.self, from: Data(text.utf8))
        }
        /// The next message that is not about positions (those arrive whenever anyone moves).
        func nextNonPosition() async throws -> Message? {
            while let m = try await next() { if m.type != "position" && m.type != "hidden" { return m } }
            return nil
        }
    }

    static func deps(_ clock: TripAPITests.Clock) throws -> ServerDependencies {
        try TripAPITests.deps(clock).replacing(settings: { $0.tripRecheck = .milliseconds(50) })
    }

    static func share(_ client: some TestClientProtocol, _ trip: String, _ token: String, _ lat: Double, _ lon: Double, until: String) async throws {
        let r = try await P.send(client, .put, "/api/v1/trips/\(trip)/position",
                                 #"{"latitude": \#(lat), "longitude": \#(lon), "accuracy": 8, "sharingUntil": "\#(until)"}"#, token: token)
        #expect(r.status == .noContent)
    }

    /// Opens the trip's live channel as `token` and runs `body` with its messages once the state has arrived.
    static func live(_ client: some TestClientProtocol & Sendable, _ trip: String, _ token: String, radius: Int = 2_000,
                     _ body: @escaping @Sendable (Socket, Message) async throws -> Void) async throws {
        try await client.ws("/live?trip=\(trip)&radius=\(radius)", configuration: PeopleLiveTests.bearer(token)) { inbound, _, _ in
            let socket = Socket(iterator: inbound.messages(maxSize: 1 << 20).makeAsyncIterator())
            let state = try #require(try await socket.next())
            #expect(state.type == "state")
            try await body(socket, state)
        }
    }

    @Test("positions move live: a host sees everyone sharing, a traveller those within their radius; paused, ended and outsiders never")
    func map() async throws {
        let clock = TripAPITests.Clock()
        try await TestServer.app(try Self.deps(clock)).test(.live) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom"), uma = try await P.signUp(client, "uma")
            let wes = try await P.signUp(client, "wes")
            let trip = try await TripSocialAPITests.trip(client, host: hana, travellers: [tom, uma]).id
            let umaID = try await TripSocialAPITests.id(client, uma), tomID = try await TripSocialAPITests.id(client, tom)
            let hour = TripAPITests.until(clock, 3600), quarter = TripAPITests.until(clock, 900)
            // Tom at the top of la Caubella, sharing for 15 minutes.
            try await Self.share(client, trip, tom, 42.5350919, 1.488898, until: quarter)
            // Wes is not on the trip: the channel does not exist for him (the upgrade is refused).
            await #expect(throws: (any Error).self) {
                try await client.ws("/live?trip=\(trip)", configuration: PeopleLiveTests.bearer(wes)) { _, _, _ in }
            }
            try await Self.live(client, trip, hana) { host, state in
                #expect(state.positions?.map(\.person) == [tomID])
                try await Self.live(client, trip, tom) { traveller, state in
                    #expect(state.positions?.isEmpty == true)
                    // Uma 500 m away: both see her.
                    try await Self.share(client, trip, uma, 42.5395, 1.488898, until: hour)
                    #expect(try await traveller.next()?.position?.person == umaID)
                    #expect(try await host.next()?.position?.person == umaID)
                    // Uma 5 km away: gone from Tom's map (out of his radius), still on the host's.
                    try await Self.share(client, trip, uma, 42.58, 1.488898, until: hour)
                    let hidden = try await traveller.next()
                    #expect(hidden?.type == "hidden" && hidden?.person == umaID)
                    #expect(try await host.next()?.position?.latitude == 42.58)
                    // Uma pauses: gone from the host's map too.
                    #expect(try await P.send(client, .post, "/api/v1/trips/\(trip)/position/pause", #"{"paused": true}"#, token: uma).status == .noContent)
                    let paused = try await host.next()
                    #expect(paused?.type == "hidden" && paused?.person == umaID)
                    // Tom's 15 minutes end: gone from the host's map, with no new message from Tom.
                    clock.advance(901)
                    let ended = try await host.next()
                    #expect(ended?.type == "hidden" && ended?.person == tomID)
                }
            }
        }
    }

    @Test("events reach their invitees live and their answers reach the inviter; chat live, direct messages to their two people only; leaving closes")
    func eventsChatLeaving() async throws {
        let clock = TripAPITests.Clock()
        try await TestServer.app(try Self.deps(clock)).test(.live) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom"), uma = try await P.signUp(client, "uma")
            let trip = try await TripSocialAPITests.trip(client, host: hana, travellers: [tom, uma]).id
            let tomID = try await TripSocialAPITests.id(client, tom), hanaID = try await TripSocialAPITests.id(client, hana)
            try await Self.live(client, trip, hana) { host, _ in
                try await Self.live(client, trip, uma) { bystander, _ in
                    try await Self.live(client, trip, tom) { invitee, _ in
                        let made = try P.decode(try await P.send(client, .post, "/api/v1/trips/\(trip)/events",
                                                                 #"{"title": "Fondue", "at": "\#(TripAPITests.until(clock, 3600))", "latitude": 42.56, "longitude": 1.49, "audience": "chosen", "people": ["\#(tomID)"]}"#,
                                                                 token: hana), as: TripEventDTO.self)
                        #expect(try await host.nextNonPosition()?.event?.id == made.id)
                        #expect(try await invitee.nextNonPosition()?.event?.id == made.id)
                        _ = try await P.send(client, .put, "/api/v1/trips/\(trip)/events/\(made.id)/rsvp", #"{"answer": "going"}"#, token: tom)
                        #expect(try await host.nextNonPosition()?.event?.answers == [tomID: "going"])
                        #expect(try await invitee.nextNonPosition()?.event?.answers == [tomID: "going"])
                        // A direct message from Hana to Tom, then one in the trip's chat.
                        _ = try await P.send(client, .post, "/api/v1/chat/person:\(tomID)", #"{"text": "Bring the map"}"#, token: hana)
                        let dm = try await invitee.nextNonPosition()
                        #expect(dm?.conversation == "person:\(hanaID)" && dm?.message?.text == "Bring the map")
                        #expect(try await host.nextNonPosition()?.conversation == "person:\(tomID)")
                        _ = try await P.send(client, .post, "/api/v1/chat/trip:\(trip)", #"{"text": "<script>alert(1)</script>"}"#, token: tom)
                        // Uma was sent neither the event, nor its answer, nor the direct message: her next is the trip's chat.
                        let first = try await bystander.nextNonPosition()
                        #expect(first?.type == "chat" && first?.conversation == "trip:\(trip)" && first?.message?.text == "<script>alert(1)</script>")
                        #expect(try await invitee.nextNonPosition()?.message?.authorName == "tom")
                        #expect(try await host.nextNonPosition()?.type == "chat")
                        // Tom leaves: his channel says so and closes; the others hear the members changed.
                        #expect(try await P.send(client, .delete, "/api/v1/trips/\(trip)/members/me", token: tom).status == .noContent)
                        #expect(try await invitee.nextNonPosition()?.type == "left")
                        #expect(try await invitee.next() == nil)
                        #expect(try await bystander.nextNonPosition()?.type == "members")
                        #expect(try await host.nextNonPosition()?.type == "members")
                    }
                }
            }
        }
    }
}
