import DataSources
import Foundation
import OnwardCore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct UpstreamClientCacheTests {
    let url = URL(string: "https://upstream.example/board?crs=ECR")!
    let clock = UpstreamTestClock()

    @Test func aFreshEntryIsServedWithoutARequestAndExpiresAfterItsTTL() async throws {
        let fetcher = ScriptedFetcher([.success(.ok("v1")), .success(.ok("v2"))])
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "board:ECR:dep", ttl: .seconds(30))

        let first = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(first.origin == .upstream)
        #expect(first.response.bodyUTF8 == "v1")

        clock.advance(29)
        let second = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(second.origin == .cache)
        #expect(second.age == .seconds(29))
        #expect(second.response.bodyUTF8 == "v1")
        #expect(await fetcher.count == 1)

        clock.advance(1)  // 30 s old: no longer fresh, and no stale window
        let third = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(third.origin == .upstream)
        #expect(third.response.bodyUTF8 == "v2")
        #expect(await fetcher.count == 2)

        let counters = await client.counters
        #expect(counters.upstreamRequests == 2)
        #expect(counters.cacheHits == 1)
    }

    @Test func withinTheStaleWindowTheStaleAnswerComesAtOnceAndARefreshReplacesIt() async throws {
        let fetcher = ScriptedFetcher([.success(.ok("v1")), .success(.ok("v2"))])
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "board:ECR:dep", ttl: .seconds(30), staleWhileRevalidate: .seconds(60))

        _ = try await client.fetch(HTTPRequest(url: url), cache: policy)
        clock.advance(45)
        let stale = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(stale.origin == .stale)
        #expect(stale.isStale)
        #expect(stale.age == .seconds(45))
        #expect(stale.response.bodyUTF8 == "v1")

        await client.awaitPendingFetches()
        #expect(await fetcher.count == 2)
        let refreshed = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(refreshed.origin == .cache)
        #expect(refreshed.age == .zero)
        #expect(refreshed.response.bodyUTF8 == "v2")
        #expect(await client.counters.staleServed == 1)
    }

    @Test func pastTheStaleWindowTheCallerWaitsForAFetch() async throws {
        let fetcher = ScriptedFetcher([.success(.ok("v1")), .success(.ok("v2"))])
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "k", ttl: .seconds(30), staleWhileRevalidate: .seconds(60))

        _ = try await client.fetch(HTTPRequest(url: url), cache: policy)
        clock.advance(90)
        let result = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(result.origin == .upstream)
        #expect(result.response.bodyUTF8 == "v2")
    }

    @Test func staleCallersWhileARefreshRunsDoNotStartAnother() async throws {
        let fetcher = GatedFetcher()
        await fetcher.release()
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "k", ttl: .seconds(10), staleWhileRevalidate: .seconds(60))
        _ = try await client.fetch(HTTPRequest(url: url), cache: policy)

        await fetcher.hold()
        clock.advance(20)
        for _ in 0..<10 { #expect(try await client.fetch(HTTPRequest(url: url), cache: policy).isStale) }
        await eventually("the refresh is in flight") { await fetcher.count == 2 }
        await fetcher.release()
        await client.awaitPendingFetches()
        #expect(await fetcher.count == 2)
        #expect(await client.counters.staleServed == 10)
    }

    @Test func aHundredConcurrentCallersOfOneKeyShareOneRequest() async throws {
        let fetcher = GatedFetcher(body: "board")
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "board:ECR:dep", ttl: .seconds(30))
        let url = url

        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask { try await client.fetch(HTTPRequest(url: url), cache: policy).response.bodyUTF8 }
            }
            // Release only once all 100 are inside: one fetching, 99 waiting for it.
            await eventually("99 callers wait for the one fetch") { await client.counters.coalescedWaits == 99 }
            await fetcher.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 100)
        #expect(Set(bodies) == ["board for /board"])
        #expect(await fetcher.count == 1)
        let counters = await client.counters
        #expect(counters.upstreamRequests == 1)
        #expect(counters.coalescedWaits == 99)
    }

    @Test func differentKeysAreSeparateRequests() async throws {
        let fetcher = GatedFetcher()
        let client = makeClient(fetcher, clock: clock)
        let a = URL(string: "https://upstream.example/a")!, b = URL(string: "https://upstream.example/b")!

        async let first = client.fetch(HTTPRequest(url: a), cache: CachePolicy(key: "a", ttl: .seconds(30)))
        async let second = client.fetch(HTTPRequest(url: b), cache: CachePolicy(key: "b", ttl: .seconds(30)))
        await eventually("both requests are in flight") { await fetcher.count == 2 }
        await fetcher.release()
        let (resultA, resultB) = try await (first, second)
        #expect(resultA.response.bodyUTF8 == "ok for /a")
        #expect(resultB.response.bodyUTF8 == "ok for /b")
        #expect(await client.counters.coalescedWaits == 0)
    }

    @Test func errorStatusesAreReturnedButNotCached() async throws {
        let fetcher = ScriptedFetcher([.success(HTTPResponse(status: 404)), .success(.ok("found"))])
        let client = makeClient(fetcher, clock: clock)
        let policy = CachePolicy(key: "stop:1", ttl: .seconds(60))

        let missing = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(missing.response.status == 404)
        #expect(missing.origin == .upstream)
        let found = try await client.fetch(HTTPRequest(url: url), cache: policy)
        #expect(found.response.status == 200)
        #expect(await fetcher.count == 2)
    }

    @Test func aWriteIsNeitherCachedNorShared() async throws {
        let fetcher = ScriptedFetcher(body: "done")
        let client = makeClient(fetcher, clock: clock)
        let post = HTTPRequest(method: .post, url: url, body: Data("x".utf8))
        let policy = CachePolicy(key: "write", ttl: .seconds(60))

        #expect(try await client.fetch(post, cache: policy).origin == .upstream)
        #expect(try await client.fetch(post, cache: policy).origin == .upstream)
        #expect(await fetcher.count == 2)
    }

    @Test func aReadingPostIsCachedLikeAGet() async throws {
        let fetcher = ScriptedFetcher(body: "<board/>")
        let client = makeClient(fetcher, clock: clock)
        let soap = HTTPRequest(method: .post, url: url, body: Data("<GetDepartureBoardRequest/>".utf8), isIdempotentRead: true)
        let policy = CachePolicy(key: "board:ECR:dep", ttl: .seconds(60))

        _ = try await client.fetch(soap, cache: policy)
        #expect(try await client.fetch(soap, cache: policy).origin == .cache)
        #expect(await fetcher.count == 1)
    }

    @Test func aStaleAnswerStandsInForATransientFailureWithinStaleIfError() async throws {
        let fetcher = ScriptedFetcher([.success(.ok("v1")), .failure(SourceError(.timeout, "upstream.example did not answer"))])
        let client = makeClient(fetcher, retry: .none, clock: clock)
        let lenient = CachePolicy(key: "k", ttl: .seconds(30), staleIfError: .seconds(300))

        _ = try await client.fetch(HTTPRequest(url: url), cache: lenient)
        clock.advance(120)
        let result = try await client.fetch(HTTPRequest(url: url), cache: lenient)
        #expect(result.origin == .stale)
        #expect(result.age == .seconds(120))

        let strict = CachePolicy(key: "k", ttl: .seconds(30))
        await #expect(throws: SourceError.self) { try await client.fetch(HTTPRequest(url: url), cache: strict) }
    }

    @Test func aFullCacheDropsTheEntryStoredLongestAgo() {
        var cache = UpstreamCache(capacity: 2)
        let start = Instant(epochSeconds: 1_750_000_000)
        cache.store(.ok("a"), for: "a", at: start)
        cache.store(.ok("b"), for: "b", at: start.adding(seconds: 1))
        cache.store(.ok("a2"), for: "a", at: start.adding(seconds: 2))  // a replacement, not a new entry
        cache.store(.ok("c"), for: "c", at: start.adding(seconds: 3))
        #expect(cache.count == 2)
        #expect(cache["b"] == nil)
        #expect(cache["a"]?.response.bodyUTF8 == "a2")
        #expect(cache["c"]?.age(at: start.adding(seconds: 10)) == .seconds(7))
    }

    @Test func theConfiguredTimeoutReplacesTheRequestsOwn() async throws {
        let fetcher = ScriptedFetcher(body: "ok")
        let client = UpstreamClient(configuration: .init(name: "cta", timeout: .seconds(3)), fetcher: fetcher,
                                    sleep: { _ in })
        _ = try await client.fetch(HTTPRequest(url: url, timeout: .seconds(30)))
        #expect(await fetcher.requests.first?.timeout == .seconds(3))
    }
}
