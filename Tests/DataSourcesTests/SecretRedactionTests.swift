import DataSources
import Foundation
import OnwardCore
import OnwardTesting
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SecretRedactionTests {
    @Test func aSafeDescriptionKeepsOnlySchemeHostAndPort() {
        #expect(URL(string: "https://api.example/v2/getpredictions?key=SECRET&rt=22")!.safeDescription == "https://api.example")
        #expect(URL(string: "http://127.0.0.1:8080/botSECRET/getUpdates")!.safeDescription == "http://127.0.0.1:8080")
        #expect(URL(string: "https://user:SECRET@host.example/")!.safeDescription == "https://host.example")
        #expect(URL(string: "HTTP://[::1]:9000/x?key=SECRET")!.safeDescription == "http://[::1]:9000")
        #expect(URL(fileURLWithPath: "/home/SECRET/feed.pb").safeDescription == "a local file")
    }

    @Test func redactingReplacesEverySecretAndItsEncodedForms() {
        let text = "GET /botAB:CD/x?key=k%2By failed; key k+y, token AB:CD, again AB%3ACD"
        let redacted = text.redacting(["k+y", "AB:CD", ""])
        #expect(!redacted.contains("k+y") && !redacted.contains("k%2By"))
        #expect(!redacted.contains("AB:CD") && !redacted.contains("AB%3ACD"))
        #expect(redacted.contains("•••"))
        #expect("nothing secret here".redacting(["SECRET"]) == "nothing secret here")
    }

    @Test func aURLsSecretBearingPartsCoverQueryValuesPathAndUserInfo() {
        let url = URL(string: "https://me:PW@api.example/bot123456:ABCDEFGHIJKLMNOP/send?key=SECRET")!
        let text = "error: \(url.absoluteString) | path \(url.path) | key SECRET | pw PW".redacting(url.secretBearingParts)
        #expect(!text.contains("SECRET"))
        #expect(!text.contains("ABCDEFGHIJKLMNOP"))
        #expect(!text.contains("PW"))
    }

    /// A URL with a secret in the path and in the query, as Telegram and CTA put them.
    func secretURL(port: Int) -> URL {
        URL(string: "http://127.0.0.1:\(port)/botSECRET/getpredictions?key=SECRET&rt=22")!
    }

    @Test func aRefusedConnectionDoesNotShowTheSecret() async throws {
        let closed = try ClosedPort()
        let port = closed.port
        defer { withExtendedLifetime(closed) {} }
        do {
            _ = try await URLSessionFetcher().fetch(HTTPRequest(url: secretURL(port: port), timeout: .seconds(5)))
            Issue.record("expected a network error")
        } catch {
            #expect(error.code == .network)
            #expect(!"\(error)".contains("SECRET"))
            #expect(error.message.contains("http://127.0.0.1:\(port)"))
        }
    }

    @Test func aTimeoutDoesNotShowTheSecret() async throws {
        try await RecordedResponseServer.run { server in
            server.route(.get, "/botSECRET/getpredictions", reply: .text("late").delayed(by: .seconds(5)))
            do throws(SourceError) {
                _ = try await URLSessionFetcher().fetch(HTTPRequest(url: secretURL(port: server.port), timeout: .milliseconds(300)))
                Issue.record("expected a timeout")
            } catch {
                #expect(error.code == .timeout)
                #expect(!"\(error)".contains("SECRET"))
            }
        }
    }

    @Test func aNonHTTPURLDoesNotShowTheSecret() async {
        do {
            _ = try await URLSessionFetcher().fetch(HTTPRequest(url: URL(string: "ftp://files.example/botSECRET/x?key=SECRET")!))
            Issue.record("expected an error")
        } catch {
            #expect(!"\(error)".contains("SECRET"))
            #expect(error.message.contains("ftp://files.example"))
        }
    }

    @Test func theClientRedactsItsSecretsFromErrorsItPassesOn() async {
        let fetcher = ScriptedFetcher([.failure(SourceError(.configuration, "upstream said: key SECRET is not valid"))])
        let client = makeClient(fetcher, name: "cta", secrets: ["SECRET"])
        do {
            _ = try await client.fetch(HTTPRequest(url: secretURL(port: 1)))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .configuration)
            #expect(error.message == "upstream said: key ••• is not valid")
        }
        #expect(client.redact("body quoting SECRET") == "body quoting •••")
    }

    @Test func aBudgetRefusalNamesTheSourceNotTheURL() async {
        let fetcher = ScriptedFetcher(body: "ok")
        let client = makeClient(fetcher, name: "cta", requestLimit: 0)
        do {
            _ = try await client.fetch(HTTPRequest(url: secretURL(port: 1)))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.code == .budgetExhausted)
            #expect(error.message.hasPrefix("cta "))
            #expect(!"\(error)".contains("SECRET"))
        }
    }
}
