import DataSources
import Foundation
import OnwardCore
import Testing

@Suite struct RequestBudgetTests {
    let start = Instant(epochSeconds: 1_750_000_000)

    @Test func aRollingWindowFreesEachSlotAWindowAfterItWasUsed() {
        var budget = RequestBudget(limit: 3, window: .seconds(100))
        func request(at second: Int64) -> Bool { budget.consume(at: start.adding(seconds: second)) }
        #expect(request(at: 0))
        #expect(request(at: 10))
        #expect(request(at: 20))
        #expect(!request(at: 30))
        #expect(budget.remaining(at: start.adding(seconds: 30)) == 0)
        #expect(budget.nextAllowed(at: start.adding(seconds: 30)) == start.adding(seconds: 100))

        // The first request leaves the window at +100: one slot, not three.
        #expect(budget.remaining(at: start.adding(seconds: 100)) == 1)
        #expect(request(at: 100))
        #expect(!request(at: 101))
        #expect(budget.status(at: start.adding(seconds: 101)).used == 3)
    }

    @Test func aRefusedRequestIsNotCounted() {
        var budget = RequestBudget(limit: 1, window: .seconds(60))
        func request(at second: Int64) -> Bool { budget.consume(at: start.adding(seconds: second)) }
        #expect(request(at: 0))
        for second in 1...30 { #expect(!request(at: Int64(second))) }
        #expect(request(at: 60))
    }

    @Test func tenThousandADayStaysBoundedOverManyDays() {
        var budget = RequestBudget(limit: 10_000)
        var allowed = 0
        // Three days of a request every 5 s: 17,280 a day asked, 10,000 a day allowed.
        for step in 0..<(3 * 17_280) where budget.consume(at: start.adding(seconds: Int64(step) * 5)) { allowed += 1 }
        #expect(allowed == 30_000)
        #expect(budget.status(at: start.adding(seconds: 3 * 86_400)).used <= 10_000)
    }

    @Test func aZeroLimitRefusesEverythingForEver() {
        var budget = RequestBudget(limit: 0)
        let allowed = budget.consume(at: start)
        #expect(!allowed)
        #expect(budget.nextAllowed(at: start) == nil)
    }
}

@Suite struct UpstreamClientBudgetTests {
    let clock = UpstreamTestClock()

    func url(_ key: String) -> URL { URL(string: "https://upstream.example/\(key)")! }

    @Test func theSixthRequestOverALimitOfFiveIsRefusedButTheCacheStillAnswers() async throws {
        let fetcher = ScriptedFetcher(body: "prediction")
        let client = makeClient(fetcher, name: "cta", requestLimit: 5, clock: clock)
        for key in ["a", "b", "c", "d", "e"] {
            _ = try await client.fetch(HTTPRequest(url: url(key)), cache: CachePolicy(key: key, ttl: .seconds(30)))
        }
        #expect(await client.budgetRemaining == 0)

        do {
            let result = try await client.fetch(HTTPRequest(url: url("f")), cache: CachePolicy(key: "f", ttl: .seconds(30)))
            Issue.record("expected .budgetExhausted, got \(result.origin)")
        } catch {
            #expect(error.code == .budgetExhausted)
            #expect(error.message.contains("cta"))
            // The reset time: a day after the first request.
            #expect(error.message.contains("\(clock.now.adding(seconds: 86_400))"))
            #expect(!error.isTransient)
        }
        #expect(await fetcher.count == 5)

        // A fresh entry is served as ever, and an expired one (even past every window) stands in, with its age.
        #expect(try await client.fetch(HTTPRequest(url: url("a")), cache: CachePolicy(key: "a", ttl: .seconds(30))).origin == .cache)
        clock.advance(3_600)
        let old = try await client.fetch(HTTPRequest(url: url("b")), cache: CachePolicy(key: "b", ttl: .seconds(30)))
        #expect(old.origin == .stale)
        #expect(old.age == .seconds(3_600))
        #expect(old.response.bodyUTF8 == "prediction")
        #expect(await fetcher.count == 5)

        let counters = await client.counters
        #expect(counters.budgetRefusals == 2)
        #expect(counters.upstreamRequests == 5)
        #expect(counters.staleServed == 1)
    }

    @Test func theBudgetFreesAsTheWindowRolls() async throws {
        let fetcher = ScriptedFetcher(body: "ok")
        let client = makeClient(fetcher, requestLimit: 2, clock: clock)
        _ = try await client.fetch(HTTPRequest(url: url("a")))
        clock.advance(3_600)
        _ = try await client.fetch(HTTPRequest(url: url("a")))
        await #expect(throws: SourceError.self) { try await client.fetch(HTTPRequest(url: url("a"))) }

        clock.advance(86_400 - 3_600)  // the first request has left the window; the second has not
        #expect(await client.budgetRemaining == 1)
        _ = try await client.fetch(HTTPRequest(url: url("a")))
        #expect(await client.budgetStatus?.remaining == 0)
        #expect(await fetcher.count == 3)
    }

    @Test func retriesAreChargedAndStopWhenTheBudgetIsSpent() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 503))])
        let client = makeClient(fetcher, requestLimit: 2, clock: clock)
        // Two attempts fit, the third is refused: the caller gets the last answer, not a budget error.
        let result = try await client.fetch(HTTPRequest(url: url("a")))
        #expect(result.response.status == 503)
        #expect(await fetcher.count == 2)
        #expect(await client.counters.budgetRefusals == 1)
    }
}
