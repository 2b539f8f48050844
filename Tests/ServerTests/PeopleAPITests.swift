import API
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
import OnwardTesting
import Server
import Services
import Storage
import Testing
import Transit

/// Accounts, sign-in and saved routes over the API, in process, on the bundled network.
@Suite("people over the API", .timeLimit(.minutes(5)))
struct PeopleAPITests {
    static let botToken = "123456:TEST-bot-token-not-real"

    static func deps(_ repository: any PeopleRepository = InMemoryPeopleRepository()) throws -> ServerDependencies {
        // Trips name their members from these people.
        TestServer.deps(try TestServer.store(),
                        people: PeopleService(repository: repository, hasher: PasswordHasher(cost: 4), telegramBotToken: botToken, now: { TestServer.now }))
    }

    static func send(_ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil,
                     token: String? = nil, headers more: HTTPFields = [:]) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        headers.append(contentsOf: more)
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    static func decode<T: Decodable>(_ r: TestResponse, as: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(r.body.readableBytesView))
    }

    /// The problem document without its request's ID.
    static func problem(_ r: TestResponse) throws -> Problem {
        var p = try decode(r, as: Problem.self)
        p.requestId = nil
        return p
    }

    static func signUp(_ client: some TestClientProtocol, _ name: String) async throws -> String {
        let r = try await send(client, .post, "/api/v1/accounts", #"{"username": "\#(name)", "password": "correct horse battery"}"#)
        #expect(r.status == .created)
        return try decode(r, as: SignedInDTO.self).token
    }

    static let blokM = #"{"version": 0, "route": {"kind": "board", "stopId": "SBKM", "to": "SBHI"}}"#

    @Test("sign up, sign in, a wrong password, and who is signed in")
    func signIn() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let token = try await Self.signUp(client, "Ana")
            let me = try Self.decode(try await Self.send(client, .get, "/api/v1/me", token: token), as: MeDTO.self)
            #expect(me.username == "Ana" && me.displayName == "Ana" && !me.telegram)
            let again = try await Self.send(client, .post, "/api/v1/accounts", #"{"username": "ana", "password": "another long one"}"#)
            #expect(again.status == .conflict)
            let short = try await Self.send(client, .post, "/api/v1/accounts", #"{"username": "bob", "password": "short"}"#)
            #expect(short.status == .badRequest && String(buffer: short.body).contains("password"))
            let good = try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "ANA", "password": "correct horse battery"}"#)
            #expect(good.status == .created)
            let wrong = try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "ana", "password": "wrong horse battery"}"#)
            #expect(wrong.status == .unauthorized)
            let nobody = try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "nobody", "password": "wrong horse battery"}"#)
            // A username that does not exist gets the very answer a wrong password gets.
            let (p1, p2) = (try Self.problem(nobody), try Self.problem(wrong))
            #expect(nobody.status == .unauthorized && p1 == p2)
            #expect(try await Self.send(client, .get, "/api/v1/me").status == .unauthorized)
            #expect(try await Self.send(client, .get, "/api/v1/me", token: "made-up").status == .unauthorized)
            // Signing out ends that token only; signing out everywhere ends them all.
            let second = try Self.decode(good, as: SignedInDTO.self).token
            #expect(try await Self.send(client, .delete, "/api/v1/sessions/current", token: token).status == .noContent)
            #expect(try await Self.send(client, .get, "/api/v1/me", token: token).status == .unauthorized)
            #expect(try await Self.send(client, .get, "/api/v1/me", token: second).status == .ok)
            let third = try Self.decode(try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "ana", "password": "correct horse battery"}"#),
                                        as: SignedInDTO.self).token
            #expect(try await Self.send(client, .delete, "/api/v1/sessions/current?everywhere=true", token: second).status == .noContent)
            #expect(try await Self.send(client, .get, "/api/v1/me", token: third).status == .unauthorized)
        }
    }

    @Test("sign-in attempts are limited per account")
    func throttled() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            _ = try await Self.signUp(client, "ana")
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<11 {
                statuses.append(try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "ana", "password": "wrong horse battery"}"#).status)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == .unauthorized })
            #expect(statuses.last == .tooManyRequests)
            // Even the right password waits now.
            #expect(try await Self.send(client, .post, "/api/v1/sessions", #"{"username": "ana", "password": "correct horse battery"}"#).status
                    == .tooManyRequests)
        }
    }

    /// Widget fields signed as Telegram signs them, with this test's bot token.
    static func telegram(_ fields: [String: String]) -> String {
        let lines = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        let key = SymmetricKey(data: SHA256.hash(data: Data(botToken.utf8)))
        let hash = HMAC<SHA256>.authenticationCode(for: Data(lines.utf8), using: key).map { String(format: "%02x", $0) }.joined()
        var all = fields
        all["hash"] = hash
        return String(decoding: try! JSONSerialization.data(withJSONObject: all), as: UTF8.self)
    }

    @Test("Telegram sign-in: genuine data signs in (the same account each time); expired or tampered data is refused")
    func telegramSignIn() async throws {
        let fresh = String(TestServer.now.epochSeconds - 60)
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let genuine = Self.telegram(["id": "4242", "first_name": "Siti", "username": "siti_j", "auth_date": fresh])
            let r = try await Self.send(client, .post, "/api/v1/sessions/telegram", genuine)
            #expect(r.status == .created)
            let first = try Self.decode(r, as: SignedInDTO.self)
            #expect(first.me.telegram && first.me.displayName == "Siti" && first.me.username == nil)
            let second = try Self.decode(try await Self.send(client, .post, "/api/v1/sessions/telegram", genuine), as: SignedInDTO.self)
            #expect(second.me.id == first.me.id)
            let old = Self.telegram(["id": "4242", "first_name": "Siti", "auth_date": String(TestServer.now.epochSeconds - 86_401)])
            let expired = try await Self.send(client, .post, "/api/v1/sessions/telegram", old)
            #expect(expired.status == .unauthorized && String(buffer: expired.body).contains("more than a day old"))
            let tampered = genuine.replacingOccurrences(of: "4242", with: "4243")
            let refused = try await Self.send(client, .post, "/api/v1/sessions/telegram", tampered)
            #expect(refused.status == .unauthorized && String(buffer: refused.body).contains("not signed"))
        }
        let off = try Self.deps().replacing(people: PeopleService(repository: InMemoryPeopleRepository(), hasher: PasswordHasher(cost: 4), now: { TestServer.now }))
        try await TestServer.app(off).test(.router) { client in
            let genuine = Self.telegram(["id": "4242", "first_name": "Siti", "auth_date": fresh])
            let r = try await Self.send(client, .post, "/api/v1/sessions/telegram", genuine)
            #expect(r.status == .notFound)
        }
    }

    @Test("saved routes: create with a name from the stops, push, pop, reorder, make current, delete; a stale write is a 409 with the current state")
    func routes() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let token = try await Self.signUp(client, "ana")
            let empty = try Self.decode(try await Self.send(client, .get, "/api/v1/me/routes", token: token), as: SavedRoutes.self)
            #expect(empty == SavedRoutes())
            let created = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, token: token)
            #expect(created.status == .created)
            var state = try Self.decode(created, as: SavedRoutes.self)
            let board = try #require(state.current?.route)
            #expect(board.name == "Stasiun MRT Blok M BCA to Stasiun MRT Bundaran HI Bank Jakarta")
            #expect(board.stopId == "mrt-jakarta:SBKM" && state.version == 1)
            // A second device that read version 0 is refused, and told what is there now.
            let stale = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, token: token)
            #expect(stale.status == .conflict)
            #expect(try Self.decode(stale, as: Problem.self).current == state)
            let journey = #"{"version": 1, "route": {"kind": "journey", "from": "SLBB", "to": "SBHI", "name": "Home"}}"#
            state = try Self.decode(try await Self.send(client, .post, "/api/v1/me/routes", journey, token: token), as: SavedRoutes.self)
            let home = try #require(state.current?.route)
            #expect(home.name == "Home" && state.stacks.count == 2)
            let queries = Queries(TestServer.deps(try TestServer.store()).sources, now: TestServer.now)
            let trip = try #require(try await queries.board(.init(stopID: "SBKM", via: "SBHI", limit: 1)).departures?.first)
            let push = #"{"version": 2, "route": {"kind": "service", "tripId": "\#(trip.tripId)", "serviceDate": "\#(trip.serviceDate)"}}"#
            let pushed = try await Self.send(client, .post, "/api/v1/me/routes/\(board.id)/stack", push, token: token)
            #expect(pushed.status == .ok)
            state = try Self.decode(pushed, as: SavedRoutes.self)
            #expect(state.currentRouteId == board.id && state.current?.pushed.count == 1)
            #expect(state.current?.top.name == "\(trip.routeShortName) to \(trip.headsign)")
            let glance = try Self.decode(try await Self.send(client, .get, "/api/v1/me/glance", token: token), as: RouteResultDTO.self)
            #expect(glance.state == .loaded && glance.service?.tripId == trip.tripId && glance.trail?.count == 2)
            state = try Self.decode(try await Self.send(client, .post, "/api/v1/me/routes/\(board.id)/stack/pop", #"{"version": 3}"#, token: token),
                                    as: SavedRoutes.self)
            #expect(state.current?.pushed.isEmpty == true)
            let nothing = try await Self.send(client, .post, "/api/v1/me/routes/\(board.id)/stack/pop", #"{"version": 4}"#, token: token)
            #expect(nothing.status == .conflict)
            state = try Self.decode(try await Self.send(client, .patch, "/api/v1/me/routes/\(home.id)", #"{"version": 4, "position": 0, "name": "Work"}"#,
                                                        token: token), as: SavedRoutes.self)
            #expect(state.stacks.map(\.route.name).first == "Work")
            state = try Self.decode(try await Self.send(client, .put, "/api/v1/me/current", #"{"version": 5, "routeId": "\#(home.id)"}"#, token: token),
                                    as: SavedRoutes.self)
            #expect(state.currentRouteId == home.id)
            state = try Self.decode(try await Self.send(client, .delete, "/api/v1/me/routes/\(home.id)", #"{"version": 6}"#, token: token),
                                    as: SavedRoutes.self)
            #expect(state.stacks.map(\.route.id) == [board.id] && state.currentRouteId == board.id && state.version == 7)
            // A stop that does not exist is a 404 naming the field.
            let unknown = try await Self.send(client, .post, "/api/v1/me/routes", #"{"version": 7, "route": {"kind": "board", "stopId": "NOWHERE"}}"#,
                                              token: token)
            let problem = try Self.decode(unknown, as: Problem.self)
            #expect(unknown.status == .notFound && problem.parameter == "route.stopId")
            // A misspelt field is named, not ignored.
            let misspelt = try await Self.send(client, .post, "/api/v1/me/routes", #"{"version": 7, "route": {"kind": "board", "stopID": "SLBB"}}"#, token: token)
            let misspeltProblem = try Self.problem(misspelt)
            #expect(misspelt.status == .badRequest && misspeltProblem.parameter == "route.stopID")
            let extra = try await Self.send(client, .patch, "/api/v1/me/routes/\(board.id)", #"{"version": 7, "name": "x", "colour": "red"}"#, token: token)
            let extraProblem = try Self.problem(extra)
            #expect(extra.status == .badRequest && extraProblem.parameter == "colour")
            let export = try Self.decode(try await Self.send(client, .get, "/api/v1/me/export", token: token), as: ExportDTO.self)
            #expect(export.routes == state && export.account.username == "ana" && export.sessions.map(\.kind) == ["token"])
            #expect(!String(buffer: try await Self.send(client, .get, "/api/v1/me/export", token: token).body).contains("$2b$"))
        }
    }

    @Test("a route saved without a name is named from its stops, cut to fit")
    func defaultName() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let token = try await Self.signUp(client, "ana")
            let body = #"{"version": 0, "route": {"kind": "journey", "from": "SLBB", "to": "SBHI"}}"#
            let state = try Self.decode(try await Self.send(client, .post, "/api/v1/me/routes", body, token: token), as: SavedRoutes.self)
            let name = try #require(state.current?.route.name)
            #expect(name.count == SavedRoutes.maxNameLength && name.hasPrefix("Stasiun MRT Lebak Bulus") && name.hasSuffix("…"))
        }
    }

    @Test("another person's routes answer 404, exactly as routes that do not exist")
    func privateByDefault() async throws {
        try await TestServer.app(try Self.deps()).test(.router) { client in
            let ana = try await Self.signUp(client, "ana"), bob = try await Self.signUp(client, "bob")
            let state = try Self.decode(try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, token: ana), as: SavedRoutes.self)
            let id = try #require(state.currentRouteId)
            let attempts: [(HTTPRequest.Method, String, String)] = [
                (.patch, "/api/v1/me/routes/\(id)", #"{"version": 0, "name": "mine"}"#),
                (.delete, "/api/v1/me/routes/\(id)", #"{"version": 0}"#),
                (.post, "/api/v1/me/routes/\(id)/stack", #"{"version": 0, "route": {"kind": "service", "tripId": "x"}}"#),
                (.post, "/api/v1/me/routes/\(id)/stack/pop", #"{"version": 0}"#),
                (.put, "/api/v1/me/current", #"{"version": 0, "routeId": "\#(id)"}"#),
            ]
            for (method, uri, body) in attempts {
                let theirs = try await Self.send(client, method, uri, body, token: bob)
                let none = try await Self.send(client, method, uri.replacingOccurrences(of: id, with: "r00000000000"),
                                               body.replacingOccurrences(of: id, with: "r00000000000"), token: bob)
                #expect(theirs.status == .notFound, "\(method) \(uri)")
                var a = try Self.problem(theirs), b = try Self.problem(none)
                a.instance = nil; b.instance = nil
                #expect(a == b)
            }
            #expect(try Self.decode(try await Self.send(client, .get, "/api/v1/me/routes", token: bob), as: SavedRoutes.self) == SavedRoutes())
            #expect(try Self.decode(try await Self.send(client, .get, "/api/v1/me/routes", token: ana), as: SavedRoutes.self) == state)
        }
    }

    @Test("a change made with a browser's cookie needs the page's anti-forgery token and this server's origin")
    func forgery() async throws {
        let deps = try Self.deps()
        try await TestServer.app(deps).test(.router) { client in
            _ = try await Self.signUp(client, "ana")
            let (signed, cookie) = try await deps.people.signIn(username: "ana", password: "correct horse battery", client: "test", kind: .browser)
            let jar: HTTPFields = [.cookie: "onward_session=\(cookie)"]
            #expect(try await Self.send(client, .get, "/api/v1/me/routes", headers: jar).status == .ok)
            let noToken = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, headers: jar)
            #expect(noToken.status == .forbidden)
            let wrongToken = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, headers: jar + [HTTPField(name: .init("X-CSRF-Token")!, value: "nope")])
            #expect(wrongToken.status == .forbidden)
            let csrf = HTTPField(name: .init("X-CSRF-Token")!, value: signed.session.csrfToken)
            let foreign = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM,
                                              headers: jar + [csrf, HTTPField(name: .origin, value: "https://evil.example")])
            #expect(foreign.status == .forbidden)
            let good = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, headers: jar + [csrf])
            #expect(good.status == .created)
        }
    }

    @Test("deleting the account deletes everything, and its token stops working")
    func deleteAccount() async throws {
        let repository = InMemoryPeopleRepository()
        try await TestServer.app(try Self.deps(repository)).test(.router) { client in
            let token = try await Self.signUp(client, "ana")
            let me = try Self.decode(try await Self.send(client, .get, "/api/v1/me", token: token), as: MeDTO.self)
            _ = try await Self.send(client, .post, "/api/v1/me/routes", Self.blokM, token: token)
            #expect(try await Self.send(client, .delete, "/api/v1/me", token: token).status == .noContent)
            #expect(try await Self.send(client, .get, "/api/v1/me", token: token).status == .unauthorized)
            #expect(try await repository.account(id: me.id) == nil)
            #expect(try await repository.routes(accountId: me.id) == SavedRoutes())
        }
    }
}

private func + (a: HTTPFields, b: [HTTPField]) -> HTTPFields {
    var all = a
    all.append(contentsOf: b)
    return all
}

/// Sign-in with Telegram in the web app: the widget on the sign-in page when configured, and the page it sends the browser back to.
@Suite("Telegram sign-in in the web app", .timeLimit(.minutes(5)))
struct TelegramPageTests {
    static func deps(username: String?) throws -> ServerDependencies {
        TestServer.deps(try TestServer.store(),
                        people: PeopleService(repository: InMemoryPeopleRepository(), hasher: PasswordHasher(cost: 4), telegramBotToken: PeopleAPITests.botToken,
                                              telegramBotUsername: username, now: { TestServer.now }))
    }

    /// Telegram's signed fields (and, optionally, the page's token) as the sign-in page's form posts them.
    static func form(_ fields: [String: String], token: String?) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(PeopleAPITests.telegram(fields).utf8)) as? [String: String])
        object["_csrf"] = token
        return object.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")
    }

    /// The sign-in page's anti-forgery token: in its form, and in the cookie it sets.
    static func pageToken(_ client: some TestClientProtocol) async throws -> (form: String, cookie: String) {
        let page = try await client.execute(uri: "/signin", method: .get)
        let html = String(buffer: page.body)
        let marker = #"name="_csrf" value=""#
        let start = try #require(html.range(of: marker)).upperBound
        let form = String(html[start...].prefix { $0 != "\"" })
        let cookie = try #require(page.headers[.setCookie])
        #expect(cookie.hasPrefix("onward_signin=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/signin"))
        return (form, String(cookie.prefix { $0 != ";" }))
    }

    @Test("the sign-in page offers Telegram's login window for the bot's ID, and lets only that page load Telegram's script")
    func widget() async throws {
        try await TestServer.app(try Self.deps(username: "onward_test_bot")).test(.router) { client in
            let page = try await client.execute(uri: "/signin", method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains(#"data-telegram-sign-in data-bot-id="123456""#))
            #expect(html.contains(#"action="/signin/telegram""#) && html.contains(#"name="_csrf""#))
            // No redirect back from Telegram that a link could imitate.
            #expect(!html.contains("data-auth-url"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self' https://telegram.org") == true)
            let home = try await client.execute(uri: "/", method: .get)
            #expect(home.headers[.contentSecurityPolicy]?.contains("telegram.org") == false)
        }
        try await TestServer.app(try Self.deps(username: nil)).test(.router) { client in
            let page = try await client.execute(uri: "/signin", method: .get)
            #expect(!String(buffer: page.body).contains("telegram-widget"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("telegram.org") == false)
        }
    }

    @Test("Telegram's signed data posted from the sign-in page signs the browser in; from elsewhere, without the page's token, or tampered, it does not")
    func callback() async throws {
        try await TestServer.app(try Self.deps(username: "onward_test_bot")).test(.router) { client in
            let fields = ["id": "777", "first_name": "Dewi Sartika", "auth_date": String(TestServer.now.epochSeconds - 30)]
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            func post(_ body: String, cookie: String?, origin: String? = nil) async throws -> TestResponse {
                var headers = form
                if let cookie { headers[.cookie] = cookie }
                if let origin { headers[.origin] = origin }
                return try await client.execute(uri: "/signin/telegram", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            // The redirect login is gone: a link carrying someone's signed data signs nobody in.
            let link = try await client.execute(uri: "/signin/telegram?" + (try Self.form(fields, token: nil)), method: .get)
            #expect(link.status != .seeOther && link.headers[.setCookie] == nil)
            let token = try await Self.pageToken(client)
            // Another site's page posting someone's data: refused, whatever token it guesses.
            let elsewhere = try await post(try Self.form(fields, token: token.form), cookie: token.cookie, origin: "https://evil.example")
            #expect(elsewhere.status == .forbidden && elsewhere.headers[.setCookie] == nil)
            // Without the page's cookie, or with another token: refused.
            #expect(try await post(try Self.form(fields, token: token.form), cookie: nil).status == .forbidden)
            #expect(try await post(try Self.form(fields, token: "made-up"), cookie: token.cookie).status == .forbidden)
            // Tampered data from the page: the form again, saying why.
            let tampered = (try Self.form(fields, token: token.form)).replacingOccurrences(of: "id=777", with: "id=778")
            let refused = try await post(tampered, cookie: token.cookie)
            #expect(refused.status == .unauthorized && !(refused.headers[.setCookie] ?? "").hasPrefix("onward_session="))
            #expect(String(buffer: refused.body).contains("not signed by this server"))
            // From the page, genuine: signed in.
            let ok = try await post(try Self.form(fields, token: token.form), cookie: token.cookie)
            #expect(ok.status == .seeOther && ok.headers[.location] == "/me")
            let cookie = try #require(ok.headers[values: .setCookie].first { $0.hasPrefix("onward_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
            let me = try await client.execute(uri: "/me", method: .get, headers: [.cookie: String(cookie.prefix { $0 != ";" })])
            #expect(me.status == .ok && String(buffer: me.body).contains("My routes"))
        }
    }
}
