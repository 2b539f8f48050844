import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Board pages for people signed out come from a cache within one second of one state: the
/// cache must never hand one person's page to anyone else, nor one language's to another.
@Suite("the board page's cache for visitors", .timeLimit(.minutes(2)))
struct BoardPageCacheTests {
    func page(_ client: some TestClientProtocol, _ uri: String, _ headers: HTTPFields = [:]) async throws -> String {
        let r = try await client.execute(uri: uri, method: .get, headers: headers)
        #expect(r.status == .ok)
        return String(buffer: r.body)
    }

    @Test("a signed-in person's board page is theirs alone; visitors before and after them get the visitors' page")
    func personNeverShared() async throws {
        // The test server's clock stands still: every request falls in one second of one state.
        try await TestServer.app(try PeopleAPITests.deps()).test(.router) { client in
            let token = try await PeopleAPITests.signUp(client, "Wilhelmina")
            let before = try await page(client, "/stops/SLBB")
            #expect(before.contains(#"href="/signin""#) && !before.contains(#"href="/trips""#))
            let theirs = try await page(client, "/stops/SLBB", [.cookie: "onward_session=\(token)"])
            // Signed in, the header links to their routes and trips instead of the sign-in page.
            #expect(theirs.contains(#"href="/trips""#) && !theirs.contains(#"href="/signin""#))
            let after = try await page(client, "/stops/SLBB")
            #expect(after == before)
            #expect(!after.contains(#"href="/trips""#) && !after.contains(token))
            // A visitor's later page is the cached one, and a different request is not.
            #expect(try await page(client, "/stops/SLBB?arrivals=1") != before)
        }
    }

    @Test("visitors asking in different languages, by header or cookie, each get their own language from the cache")
    func languagesKeptApart() async throws {
        try await TestServer.app(TestServer.deps(try TestServer.store())).test(.router) { client in
            let english = try await page(client, "/stops/SLBB", [.acceptLanguage: "en"])
            let byHeader = try await page(client, "/stops/SLBB", [.acceptLanguage: "id"])
            let byCookie = try await page(client, "/stops/SLBB", [.cookie: "lang=id"])
            #expect(english.contains(#"<html lang="en""#))
            #expect(byHeader.contains(#"<html lang="id""#))
            #expect(byCookie.contains(#"<html lang="id""#))
            #expect(try await page(client, "/stops/SLBB", [.acceptLanguage: "en"]) == english)
            // The page's own ?lang= choice still sets its cookie when the page comes from the cache.
            for _ in 0..<2 {
                let r = try await client.execute(uri: "/stops/SLBB?lang=id", method: .get)
                #expect(r.headers[.setCookie]?.hasPrefix("lang=id") == true)
            }
        }
    }
}
