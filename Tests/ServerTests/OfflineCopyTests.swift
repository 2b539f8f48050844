import API
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OnwardCore
import Testing

/// What a signed-in person's phone keeps for when it has no signal (issue 27, item 4): the list of what to keep, and
/// the copies themselves, made by the server the pages come from. (The service worker that keeps and serves them is
/// tested in a real Chromium: Tests/Browser/test_offline.py.)
@Suite("offline copies of saved boards")
struct OfflineCopyTests {
    @Test("the pack lists My routes, commuting mode and each saved board, each with where its copy is made; signed out, there is none")
    func pack() async throws {
        try await TestServer.app(try PeopleAPITests.deps()).test(.router) { client in
            let token = try await PeopleAPITests.signUp(client, "ana")
            #expect(try await PeopleAPITests.send(client, .post, "/api/v1/me/routes", PeopleAPITests.blokM, token: token).status == .created)
            #expect(try await PeopleAPITests.send(client, .post, "/api/v1/me/routes", #"{"version": 1, "route": {"kind": "board", "stopId": "SLBB", "name": "Home"}}"#,
                                                  token: token).status == .created)
            // A saved journey is not a board: nothing of it is kept.
            #expect(try await PeopleAPITests.send(client, .post, "/api/v1/me/routes", #"{"version": 2, "route": {"kind": "journey", "from": "SLBB", "to": "SBHI"}}"#,
                                                  token: token).status == .created)
            let pack = try PeopleAPITests.decode(try await PeopleAPITests.send(client, .get, "/api/v1/me/offline", token: token), as: OfflinePackDTO.self)
            #expect(pack.routesVersion == 3)
            #expect(pack.pages.map(\.url) == ["/me", "/commute", "/stops/mrt-jakarta%3ASBKM?to=mrt-jakarta%3ASBHI", "/stops/mrt-jakarta%3ASLBB"])
            #expect(pack.pages.map(\.copy) == ["/me?offline=1", "/commute", "/stops/mrt-jakarta%3ASBKM?to=mrt-jakarta%3ASBHI&offline=1",
                                               "/stops/mrt-jakarta%3ASLBB?offline=1"])
            #expect(pack.pages.last?.name == "Home")
            #expect(pack.assets.count == 3 && pack.assets.allSatisfy { $0.hasPrefix("/assets/") && $0.contains("?v=") })
            #expect(try await PeopleAPITests.send(client, .get, "/api/v1/me/offline").status == .unauthorized)

            // The offline "My routes": the kept boards as links, marked as a copy.
            let me = try await client.execute(uri: "/me?offline=1", method: .get, headers: [.cookie: "onward_session=\(token)"])
            let page = String(buffer: me.body)
            #expect(page.contains("data-offline-copy"))
            #expect(page.contains("You are offline. The timetables of your saved boards are kept on this device:"))
            #expect(page.contains(#"<a class="stop-item" href="/stops/mrt-jakarta%3ASLBB"><span class="stop-name">Home</span></a>"#))
        }
    }

    @Test("a board's copy is the timetable's next three hours, with no live times, saying when live data was last heard")
    func boardCopy() async throws {
        try await TestServer.app(try PeopleAPITests.deps()).test(.router) { client in
            let live = String(buffer: try await client.execute(uri: "/stops/SLBB", method: .get).body)
            let page = String(buffer: try await client.execute(uri: "/stops/SLBB?offline=1", method: .get).body)
            #expect(page.contains("data-offline-copy"))
            // The simulation's data was made at 08:00 in Jakarta (TestServer.now).
            #expect(page.contains("Offline: timetable only, last live data at 08:00"))
            // Its live part asks for the usual board, which replaces the copy as soon as the network is back.
            #expect(page.contains(#"data-live="board=mrt-jakarta%3ASLBB&amp;kind=departures&amp;lang=en&amp;format=html""#))
            // Every row's timetable time, from now to three hours on: the live board's late rows are on time here.
            let times = page.components(separatedBy: #"data-at=""#).dropFirst().map { String($0.prefix { $0 != "\"" }) }
            let instants = times.compactMap { ISO8601DateFormatter().date(from: $0).map { Int64($0.timeIntervalSince1970) } }
            #expect(instants.count == times.count && times.count > 20)
            #expect(instants.allSatisfy { $0 >= TestServer.now.epochSeconds && $0 <= TestServer.now.epochSeconds + 3 * 3600 })
            #expect(instants.max()! > TestServer.now.epochSeconds + 2 * 3600 + 45 * 60)
            #expect(!page.contains("status-late") && live.contains("status-late"))
            #expect(!live.contains("data-at=") && !live.contains("data-offline-copy"))
        }
    }

    @Test("signing out tells the browser to clear what it kept")
    func signOutClears() async throws {
        try await TestServer.app(try PeopleAPITests.deps()).test(.router) { client in
            let token = try await PeopleAPITests.signUp(client, "ana")
            let account = try await client.execute(uri: "/account", method: .get, headers: [.cookie: "onward_session=\(token)"])
            let csrf = try #require(String(buffer: account.body).components(separatedBy: #"name="_csrf" value=""#).dropFirst().first?.prefix { $0 != "\"" })
            let out = try await client.execute(uri: "/signout", method: .post,
                                               headers: [.cookie: "onward_session=\(token)", .contentType: "application/x-www-form-urlencoded",
                                                         .origin: "http://localhost"],
                                               body: ByteBuffer(string: "_csrf=\(csrf)"))
            #expect(out.status == .seeOther)
            #expect(out.headers[HTTPField.Name("Clear-Site-Data")!] == #""cache", "storage""#)
        }
    }
}
