import API
import Crypto
import DataSources
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OnwardCore
import OnwardTesting
import Server
import Services
import Storage
import Testing
import Trips
import WebPush

/// Chat, friends, profiles, broadcasts, leaving a trip and the Telegram webhook over the API, with their privacy rules.
@Suite("trip people over the API", .timeLimit(.minutes(5)))
struct TripSocialAPITests {
    typealias P = PeopleAPITests

    static func id(_ client: some TestClientProtocol, _ token: String) async throws -> String {
        try P.decode(try await P.send(client, .get, "/api/v1/me", token: token), as: MeDTO.self).id
    }

    /// A trip hosted by `host` with `travellers` on it.
    static func trip(_ client: some TestClientProtocol, host: String, travellers: [String]) async throws -> TripDTO {
        let trip = try P.decode(try await P.send(client, .post, "/api/v1/trips", #"{"name": "Ski week", "endsAt": "\#(TestServer.now.adding(seconds: 7 * 86_400))"}"#,
                                                 token: host), as: TripDTO.self)
        for t in travellers {
            #expect(try await P.send(client, .post, "/api/v1/trips/join", #"{"code": "\#(trip.inviteCode!)"}"#, token: t).status == .ok)
        }
        return trip
    }

    /// Two answers are the same problem (but for the request's ID): what "exactly as if it did not exist" means.
    static func sameProblem(_ a: TestResponse, _ b: TestResponse) throws -> Bool {
        var x = try P.problem(a), y = try P.problem(b)
        x.instance = nil; y.instance = nil
        return a.status == b.status && x == y
    }

    @Test("the trip's chat is its members' only; pages go backwards; unread counts follow the read mark; text is kept as typed")
    func tripChat() async throws {
        try await TestServer.app(try P.deps()).test(.router) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom"), wes = try await P.signUp(client, "wes")
            let trip = try await Self.trip(client, host: hana, travellers: [tom])
            let chat = "/api/v1/chat/trip:\(trip.id)"
            for i in 1...7 {
                let r = try await P.send(client, .post, chat, #"{"text": "  <b>message</b> \#(i)  "}"#, token: i % 2 == 0 ? tom : hana)
                #expect(r.status == .created)
            }
            let newest = try P.decode(try await P.send(client, .get, chat + "?limit=3", token: tom), as: ChatPageDTO.self)
            #expect(newest.messages.map(\.sequence) == [5, 6, 7] && newest.more)
            #expect(newest.messages.last?.text == "<b>message</b> 7" && newest.messages.last?.authorName == "hana")
            // Tom wrote message 6, so he has read up to it: only 7 is unread.
            #expect(newest.unread == 1)
            let older = try P.decode(try await P.send(client, .get, chat + "?limit=3&before=5", token: tom), as: ChatPageDTO.self)
            #expect(older.messages.map(\.sequence) == [2, 3, 4] && older.more)
            let oldest = try P.decode(try await P.send(client, .get, chat + "?limit=3&before=2", token: tom), as: ChatPageDTO.self)
            #expect(oldest.messages.map(\.sequence) == [1] && !oldest.more)
            let read = try await P.send(client, .put, chat + "/read", #"{"upTo": 7}"#, token: tom)
            #expect(read.status == .ok && String(buffer: read.body).contains(#""unread":0"#))
            let list = try P.decode(try await P.send(client, .get, "/api/v1/chat", token: tom), as: ConversationsDTO.self)
            #expect(list.conversations.contains(.init(conversation: "trip:\(trip.id)", title: "Ski week", unread: 0)))
            #expect(try await P.send(client, .post, chat, #"{"text": "   "}"#, token: tom).status == .badRequest)
            // Wes is not on the trip: its chat answers exactly as one that does not exist.
            for (method, path, body) in [(HTTPRequest.Method.get, "", nil), (.post, "", #"{"text": "hi"}"#), (.put, "/read", #"{"upTo": 1}"#)]
                as [(HTTPRequest.Method, String, String?)] {
                let theirs = try await P.send(client, method, chat + path, body, token: wes)
                let none = try await P.send(client, method, "/api/v1/chat/trip:0123456789abcdef0123456789abcdef" + path, body, token: wes)
                #expect(try Self.sameProblem(theirs, none) && theirs.status == .notFound, "\(method) \(path)")
            }
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/chat", token: wes), as: ConversationsDTO.self).conversations.isEmpty)
        }
    }

    @Test("direct messages between friends only: a shared trip or an accepted request; a request is answered by its receiver alone")
    func friendsAndDirectMessages() async throws {
        try await TestServer.app(try P.deps()).test(.router) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom"), wes = try await P.signUp(client, "wes")
            let (hanaID, tomID, wesID) = (try await Self.id(client, hana), try await Self.id(client, tom), try await Self.id(client, wes))
            _ = try await Self.trip(client, host: hana, travellers: [tom])
            // On a trip together: friends, and may write to each other.
            #expect(try await P.send(client, .post, "/api/v1/chat/person:\(tomID)", #"{"text": "Lift at 9?"}"#, token: hana).status == .created)
            let tomsView = try P.decode(try await P.send(client, .get, "/api/v1/chat/person:\(hanaID)", token: tom), as: ChatPageDTO.self)
            #expect(tomsView.messages.map(\.text) == ["Lift at 9?"] && tomsView.unread == 1)
            // Wes is nobody's friend yet: writing to Hana, or reading Hana and Tom's, is a conversation that does not exist.
            let toHana = try await P.send(client, .post, "/api/v1/chat/person:\(hanaID)", #"{"text": "hi"}"#, token: wes)
            let toNobody = try await P.send(client, .post, "/api/v1/chat/person:0123456789abcdef0123456789abcdef", #"{"text": "hi"}"#, token: wes)
            #expect(try Self.sameProblem(toHana, toNobody) && toHana.status == .notFound)
            // Wes asks Hana; Tom cannot accept for her; Hana accepts.
            let asked = try P.decode(try await P.send(client, .post, "/api/v1/friends/requests", #"{"person": "\#(hanaID)"}"#, token: wes), as: FriendshipDTO.self)
            #expect(asked.status == "requested")
            #expect(try await P.send(client, .post, "/api/v1/friends/requests/\(wesID)/accept", token: tom).status == .notFound)
            let hanasFriends = try P.decode(try await P.send(client, .get, "/api/v1/friends", token: hana), as: FriendsDTO.self)
            #expect(hanasFriends.incoming.map(\.displayName) == ["wes"] && hanasFriends.friends.map(\.displayName) == ["tom"])
            #expect(try P.decode(try await P.send(client, .post, "/api/v1/friends/requests/\(wesID)/accept", token: hana), as: FriendshipDTO.self).status
                    == "friends")
            #expect(try await P.send(client, .post, "/api/v1/chat/person:\(hanaID)", #"{"text": "hi"}"#, token: wes).status == .created)
            // Friendship is not transitive: Wes and Tom are still strangers.
            #expect(try await P.send(client, .post, "/api/v1/chat/person:\(tomID)", #"{"text": "hi"}"#, token: wes).status == .notFound)
            #expect(try await P.send(client, .post, "/api/v1/friends/requests", #"{"person": "0123456789abcdef0123456789abcdef"}"#, token: wes).status == .notFound)
        }
    }

    @Test("a profile (name, bio, photo, shared trips) is seen by oneself and friends; to anyone else it does not exist")
    func profiles() async throws {
        try await TestServer.app(try P.deps()).test(.router) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom"), wes = try await P.signUp(client, "wes")
            let hanaID = try await Self.id(client, hana)
            _ = try await Self.trip(client, host: hana, travellers: [tom])
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100_000))
            let body = #"{"displayName": " Hana S. ", "bio": "Guide, 12 winters in Vallnord", "photo": "\#(png.base64EncodedString())"}"#
            let mine = try P.decode(try await P.send(client, .put, "/api/v1/me/profile", body, token: hana), as: ProfileDTO.self)
            #expect(mine.displayName == "Hana S." && mine.bio == "Guide, 12 winters in Vallnord" && mine.photo == "/api/v1/people/\(hanaID)/photo")
            #expect(mine.trips == ["Ski week"])
            let seen = try P.decode(try await P.send(client, .get, "/api/v1/people/\(hanaID)", token: tom), as: ProfileDTO.self)
            #expect(seen.displayName == "Hana S." && seen.trips == ["Ski week"])
            let photo = try await P.send(client, .get, "/api/v1/people/\(hanaID)/photo", token: tom)
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/png" && Data(photo.body.readableBytesView) == png)
            for path in ["", "/photo"] {
                let stranger = try await P.send(client, .get, "/api/v1/people/\(hanaID)\(path)", token: wes)
                let nobody = try await P.send(client, .get, "/api/v1/people/0123456789abcdef0123456789abcdef\(path)", token: wes)
                #expect(try Self.sameProblem(stranger, nobody) && stranger.status == .notFound)
            }
            // Bad input: a clear 400 naming the field, and the profile kept as it was.
            let gif = try await P.send(client, .put, "/api/v1/me/profile", #"{"photo": "\#(Data("GIF89a....".utf8).base64EncodedString())"}"#, token: hana)
            #expect(try P.problem(gif).parameter == "photo" && gif.status == .badRequest)
            let long = try await P.send(client, .put, "/api/v1/me/profile", #"{"bio": "\#(String(repeating: "x", count: 281))"}"#, token: hana)
            #expect(try P.problem(long).parameter == "bio" && long.status == .badRequest)
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/people/\(hanaID)", token: hana), as: ProfileDTO.self) == mine)
            // null removes the photo.
            let removed = try P.decode(try await P.send(client, .put, "/api/v1/me/profile", #"{"photo": null}"#, token: hana), as: ProfileDTO.self)
            #expect(removed.photo == nil && removed.bio == mine.bio)
            #expect(try await P.send(client, .get, "/api/v1/people/\(hanaID)/photo", token: tom).status == .notFound)
        }
    }

    @Test("a host broadcasts to the trip; a traveller cannot; a traveller who left sees nothing of the trip and is on nobody's map")
    func broadcastsAndLeaving() async throws {
        let clock = TripAPITests.Clock()
        try await TestServer.app(try TripAPITests.deps(clock)).test(.router) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom")
            let trip = try await Self.trip(client, host: hana, travellers: [tom])
            let sent = try await P.send(client, .post, "/api/v1/trips/\(trip.id)/broadcasts", #"{"text": "Lifts close at 16:30 today"}"#, token: hana)
            #expect(sent.status == .created)
            let reach = try P.decode(sent, as: BroadcastSentDTO.self)
            #expect(reach.app == 1 && reach.push == 0 && reach.telegram == 0)
            let refused = try await P.send(client, .post, "/api/v1/trips/\(trip.id)/broadcasts", #"{"text": "Party!"}"#, token: tom)
            #expect(refused.status == .forbidden)
            let listed = try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/broadcasts", token: tom), as: BroadcastsDTO.self)
            #expect(listed.broadcasts.map(\.text) == ["Lifts close at 16:30 today"])
            // Tom shares, then leaves: his position is on nobody's map, and the trip answers him 404.
            let until = TripAPITests.until(clock, 3600)
            _ = try await P.send(client, .put, "/api/v1/trips/\(trip.id)/position",
                                 #"{"latitude": 42.57, "longitude": 1.48, "accuracy": 10, "sharingUntil": "\#(until)"}"#, token: tom)
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/positions", token: hana), as: TripPositionsDTO.self).positions.count == 1)
            #expect(try await P.send(client, .delete, "/api/v1/trips/\(trip.id)/members/me", token: tom).status == .noContent)
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/positions", token: hana), as: TripPositionsDTO.self).positions.isEmpty)
            for path in ["members", "broadcasts", "events", "positions"] {
                #expect(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/\(path)", token: tom).status == .notFound, "\(path)")
            }
            #expect(try await P.send(client, .get, "/api/v1/chat/trip:\(trip.id)", token: tom).status == .notFound)
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips", token: tom), as: TripsDTO.self).trips.isEmpty)
            // The last host cannot leave.
            #expect(try await P.send(client, .delete, "/api/v1/trips/\(trip.id)/members/me", token: hana).status == .conflict)
        }
    }

    @Test("deleting an account takes the person off their trips and forgets their profile and position")
    func deletedAccount() async throws {
        try await TestServer.app(try P.deps()).test(.router) { client in
            let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom")
            let trip = try await Self.trip(client, host: hana, travellers: [tom])
            let tomID = try await Self.id(client, tom)
            _ = try await P.send(client, .put, "/api/v1/me/profile", #"{"bio": "Snowboarder"}"#, token: tom)
            _ = try await P.send(client, .put, "/api/v1/trips/\(trip.id)/position",
                                 #"{"latitude": 42.57, "longitude": 1.48, "accuracy": 10, "sharingUntil": "\#(TestServer.now.adding(seconds: 600))"}"#, token: tom)
            #expect(try await P.send(client, .delete, "/api/v1/me", token: tom).status == .noContent)
            let members = try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/members", token: hana), as: TripMembersDTO.self)
            #expect(members.members.map(\.displayName) == ["hana"])
            #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/positions", token: hana), as: TripPositionsDTO.self).positions.isEmpty)
            #expect(try await P.send(client, .get, "/api/v1/people/\(tomID)", token: hana).status == .notFound)
        }
    }

    static let webhookSecret = "s3cret-for-the-webhook_only"

    @Test("Telegram: an invitation goes out with RSVP buttons; a press answers the event and stops the spinner; a wrong secret is refused")
    func telegramWebhook() async throws {
        try await RecordedResponseServer.run { telegram in
            let token = P.botToken
            telegram.route(.post, "/bot\(token)/sendMessage", reply: .text(#"{"ok": true, "result": {}}"#, contentType: "application/json"))
            telegram.route(.post, "/bot\(token)/answerCallbackQuery", reply: .text(#"{"ok": true, "result": true}"#, contentType: "application/json"))
            let people = InMemoryPeopleRepository()
            let trips = InMemoryTripRepository()
            let bot = TelegramBot(token: token, base: telegram.url("/"), fetcher: URLSessionFetcher(), logger: TestServer.quiet)
            let notifier = TripNotifier(repository: trips, people: people, telegram: bot)
            let deps = try P.deps(people).replacing(trips: {
                TripService(repository: trips, people: $0, notifier: notifier, telegramWebhookSecret: Self.webhookSecret, now: { TestServer.now })
            })
            let delivering = Task { try await notifier.run() }
            defer { delivering.cancel() }
            try await TestServer.app(deps).test(.router) { client in
                let hana = try await P.signUp(client, "hana")
                let fresh = String(TestServer.now.epochSeconds)
                let signedIn = try await P.send(client, .post, "/api/v1/sessions/telegram",
                                                P.telegram(["id": "4242", "first_name": "Siti", "auth_date": fresh]))
                let siti = try P.decode(signedIn, as: SignedInDTO.self).token
                let trip = try await Self.trip(client, host: hana, travellers: [siti])
                let sitiID = try await Self.id(client, siti)
                let made = try P.decode(try await P.send(client, .post, "/api/v1/trips/\(trip.id)/events",
                                                         #"{"title": "Fondue at the hut", "at": "\#(TestServer.now.adding(seconds: 3600))", "latitude": 42.56, "longitude": 1.49, "audience": "chosen", "people": ["\#(sitiID)"]}"#,
                                                         token: hana), as: TripEventDTO.self)
                // The invitation reaches Siti's Telegram with three buttons carrying the event.
                let invitation = try await Self.firstRequest(telegram, "/bot\(token)/sendMessage")
                let sent = try #require(try JSONSerialization.jsonObject(with: invitation.body) as? [String: Any])
                #expect(sent["chat_id"] as? Int == 4242 && (sent["text"] as? String)?.contains("Fondue at the hut") == true)
                #expect(invitation.bodyText.contains("rsvp:\(made.id):going") && invitation.bodyText.contains("rsvp:\(made.id):notGoing"))
                // Siti presses "Going".
                func press(_ data: String, from user: Int, secret: String?) async throws -> TestResponse {
                    let update = #"{"update_id": 1, "callback_query": {"id": "cq-\#(user)", "from": {"id": \#(user), "is_bot": false, "first_name": "x"}, "chat_instance": "1", "data": "\#(data)"}}"#
                    var headers: HTTPFields = [:]
                    if let secret { headers[HTTPField.Name("X-Telegram-Bot-Api-Secret-Token")!] = secret }
                    return try await P.send(client, .post, "/api/v1/telegram/webhook", update, headers: headers)
                }
                // Without the secret, or with another one: refused, and nothing is answered.
                #expect(try await press("rsvp:\(made.id):going", from: 4242, secret: nil).status == .forbidden)
                #expect(try await press("rsvp:\(made.id):going", from: 4242, secret: "guess").status == .forbidden)
                #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: hana), as: TripEventsDTO.self)
                    .events.first?.answers.isEmpty == true)
                #expect(try await press("rsvp:\(made.id):going", from: 4242, secret: Self.webhookSecret).status == .ok)
                let answered = try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: hana), as: TripEventsDTO.self)
                #expect(answered.events.first?.answers == [sitiID: "going"])
                let spinner = try await Self.firstRequest(telegram, "/bot\(token)/answerCallbackQuery")
                #expect(spinner.bodyText.contains(#""callback_query_id":"cq-4242""#) && spinner.bodyText.contains("Going: Fondue at the hut"))
                // Someone Telegram knows but Onward does not: the answer says so, and the event is unchanged.
                #expect(try await press("rsvp:\(made.id):notGoing", from: 999, secret: Self.webhookSecret).status == .ok)
                let stranger = try await Self.request(telegram, "/bot\(token)/answerCallbackQuery", containing: "cq-999")
                #expect(stranger.bodyText.contains("not yours to answer"))
                #expect(try P.decode(try await P.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: hana), as: TripEventsDTO.self)
                    .events.first?.answers == [sitiID: "going"])
                // The bot token never shows in what the API answers.
                #expect(!String(buffer: (try await P.send(client, .get, "/api/v1/trips/\(trip.id)/events", token: hana)).body).contains(token))
            }
        }
    }

    @Test("a broadcast reaches members by Web Push (encrypted, VAPID-signed) and by Telegram; a subscription the push service says is gone is forgotten")
    func broadcastDelivery() async throws {
        try await RecordedResponseServer.run { upstream in
            let token = P.botToken
            upstream.route(.post, "/bot\(token)/sendMessage", reply: .text(#"{"ok": true, "result": {}}"#, contentType: "application/json"))
            upstream.route(.post, "/push/tom", replies: [.status(201), .status(410)])
            let people = InMemoryPeopleRepository()
            let trips = InMemoryTripRepository()
            let fetcher = URLSessionFetcher()
            let push = PushSender(key: VAPIDKey(), subject: "mailto:ops@example.org", fetcher: fetcher, allowHTTP: true, logger: TestServer.quiet)
            let notifier = TripNotifier(repository: trips, people: people, push: push,
                                        telegram: TelegramBot(token: token, base: upstream.url("/"), fetcher: fetcher, logger: TestServer.quiet))
            let deps = try P.deps(people).replacing(trips: { TripService(repository: trips, people: $0, notifier: notifier, now: { TestServer.now }) })
            let delivering = Task { try await notifier.run() }
            defer { delivering.cancel() }
            try await TestServer.app(deps).test(.router) { client in
                let hana = try await P.signUp(client, "hana"), tom = try await P.signUp(client, "tom")
                let siti = try P.decode(try await P.send(client, .post, "/api/v1/sessions/telegram",
                                                         P.telegram(["id": "4242", "first_name": "Siti", "auth_date": String(TestServer.now.epochSeconds)])),
                                        as: SignedInDTO.self).token
                let trip = try await Self.trip(client, host: hana, travellers: [tom, siti])
                // Tom's browser subscribes: keys as a browser makes them.
                let browserKey = P256.KeyAgreement.PrivateKey()
                let p256dh = Base64URL.encode(browserKey.publicKey.x963Representation)
                let subscription = #"{"subscription": {"endpoint": "\#(upstream.url("/push/tom"))", "keys": {"p256dh": "\#(p256dh)", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}}"#
                #expect(try await P.send(client, .put, "/api/v1/me/push", subscription, token: tom).status == .noContent)
                let bad = #"{"subscription": {"endpoint": "https://push.example/x", "keys": {"p256dh": "BBBB", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}}"#
                #expect(try await P.send(client, .put, "/api/v1/me/push", bad, token: tom).status == .unprocessableContent)
                let sent = try P.decode(try await P.send(client, .post, "/api/v1/trips/\(trip.id)/broadcasts", #"{"text": "Lifts close at 16:30"}"#, token: hana),
                                        as: BroadcastSentDTO.self)
                #expect(sent.app == 2 && sent.push == 1 && sent.telegram == 1)
                let pushed = try await Self.firstRequest(upstream, "/push/tom")
                #expect(pushed.headers["content-encoding"] == "aes128gcm" && pushed.headers["authorization"]?.hasPrefix("vapid t=") == true)
                #expect(!pushed.body.isEmpty && !pushed.bodyText.contains("Lifts close"))
                let telegram = try await Self.firstRequest(upstream, "/bot\(token)/sendMessage")
                #expect(telegram.bodyText.contains("Lifts close at 16:30") && telegram.bodyText.contains("4242"))
                // The second push is answered 410: the subscription is forgotten, and the next broadcast reaches Telegram only.
                _ = try await P.send(client, .post, "/api/v1/trips/\(trip.id)/broadcasts", #"{"text": "Dinner at 8"}"#, token: hana)
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline, try await trips.profile(person: try await Self.id(client, tom))?.push != nil {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(try await trips.profile(person: try await Self.id(client, tom))?.push == nil)
                let third = try P.decode(try await P.send(client, .post, "/api/v1/trips/\(trip.id)/broadcasts", #"{"text": "Bus at 9"}"#, token: hana),
                                         as: BroadcastSentDTO.self)
                #expect(third.push == 0 && third.telegram == 1)
            }
        }
    }

    @Test("without a configured secret the webhook does not exist")
    func webhookOff() async throws {
        try await TestServer.app(try P.deps()).test(.router) { client in
            let r = try await P.send(client, .post, "/api/v1/telegram/webhook", #"{"update_id": 1}"#,
                                     headers: [HTTPField.Name("X-Telegram-Bot-Api-Secret-Token")!: "anything"])
            #expect(r.status == .notFound)
        }
    }

    /// The first request the recorded server received on `path`, waiting for it (deliveries leave in the background).
    static func firstRequest(_ server: RecordedResponseServer, _ path: String) async throws -> RecordedResponseServer.ReceivedRequest {
        try await request(server, path, containing: nil)
    }

    static func request(_ server: RecordedResponseServer, _ path: String, containing text: String?) async throws -> RecordedResponseServer.ReceivedRequest {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if let r = server.requests.first(where: { $0.path == path && (text == nil || $0.bodyText.contains(text!)) }) { return r }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CancellationError()
    }
}
