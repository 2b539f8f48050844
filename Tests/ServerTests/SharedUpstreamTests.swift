import App
import DataSources
import Foundation
import Logging
import OnwardCore
import OnwardTesting
import Storage
import StoragePostgres
import Synchronization
import Testing

/// Servers on one database fetch each on-demand answer once between them: one claims the key and
/// fetches, the others wait for its answer in the database (`UpstreamClient` with `SharedUpstreamAnswers`).
@Suite("upstream answers shared between servers", .timeLimit(.minutes(2)))
struct SharedUpstreamTests {
    /// The upstream both servers talk to: counts requests, and holds them until released.
    actor Upstream: HTTPFetching {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var open: Bool
        private let failFirst: Bool
        private(set) var count = 0

        init(open: Bool, failFirst: Bool = false) { self.open = open; self.failFirst = failFirst }

        func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
            count += 1
            let n = count
            if !open { await withCheckedContinuation { waiting.append($0) } }
            if failFirst && n == 1 { return HTTPResponse(status: 503, body: Data("busy".utf8)) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/xml"], body: Data("<board n=\"\(count)\"/>".utf8))
        }

        func release() {
            open = true
            waiting.forEach { $0.resume() }
            waiting.removeAll()
        }
    }

    /// The database as the servers see it, counting the claims it refused.
    final class Watched: SharedUpstreamAnswers {
        let inner: StoredUpstreamAnswers
        let refused = Atomic<Int>(0)
        init(_ repository: any UpstreamAnswerRepository) {
            inner = StoredUpstreamAnswers(repository: repository, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        }
        func answer(source: String, key: String) async -> UpstreamCache.Entry? { await inner.answer(source: source, key: key) }
        func store(source: String, key: String, _ entry: UpstreamCache.Entry) async { await inner.store(source: source, key: key, entry) }
        func release(source: String, key: String) async { await inner.release(source: source, key: key) }
        func claim(source: String, key: String, until: Instant) async -> Bool {
            let won = await inner.claim(source: source, key: key, until: until)
            if !won { refused.add(1, ordering: .relaxed) }
            return won
        }
    }

    static let request = HTTPRequest(url: URL(string: "https://upstream.example/board?key=SECRET")!)
    static let policy = CachePolicy(key: "board:KGX:dep", ttl: .seconds(30))

    static func server(_ upstream: Upstream, _ shared: any SharedUpstreamAnswers, timeout: Duration? = nil) -> UpstreamClient {
        UpstreamClient(configuration: .init(name: "national-rail", timeout: timeout, secrets: ["SECRET"]), fetcher: upstream, shared: shared)
    }

    static func oneFetchForTwoServers(_ repository: any UpstreamAnswerRepository) async throws {
        let upstream = Upstream(open: false)
        let database = Watched(repository)
        let a = server(upstream, database), b = server(upstream, database)
        let first = Task { try await a.fetch(request, cache: policy) }
        while await upstream.count == 0 { await Task.yield() }
        // A fetches; B finds A's claim and waits for its answer.
        let second = Task { try await b.fetch(request, cache: policy) }
        while database.refused.load(ordering: .relaxed) == 0 { await Task.yield() }
        await upstream.release()
        let (fromA, fromB) = (try await first.value, try await second.value)
        #expect(await upstream.count == 1)
        #expect(fromA.response.body == fromB.response.body)
        #expect(fromB.response.headers["content-type"] == "text/xml")
        #expect(fromA.origin == .upstream && fromB.origin == .cache)
        let counters = await b.counters
        #expect(counters.upstreamRequests == 0 && counters.sharedAnswers == 1)
        // Within the TTL, a third server (a restart) answers from the database without asking.
        let c = server(upstream, database)
        #expect(try await c.fetch(request, cache: policy).response.body == fromA.response.body)
        #expect(await upstream.count == 1)
    }

    @Test("two servers asking for one board at once send one request (in memory)")
    func inMemory() async throws { try await Self.oneFetchForTwoServers(InMemoryUpstreamAnswerRepository()) }

    @Test("two servers asking for one board at once send one request (PostgreSQL)", .enabled(if: TestPostgres.enabled, TestPostgres.skipped))
    func postgres() async throws {
        try await TestPostgres.withStore { store in try await Self.oneFetchForTwoServers(store.upstreamAnswers) }
    }

    @Test("a fetch that fails gives up its claim: the waiting server fetches at once, not after its timeout")
    func failedFetchReleases() async throws {
        let upstream = Upstream(open: false, failFirst: true)
        let database = Watched(InMemoryUpstreamAnswerRepository())
        // No retries, and a timeout past the suite's limit: only the released claim lets B go on in time.
        let a = UpstreamClient(configuration: .init(name: "national-rail", retry: RetryPolicy(maxRetries: 0)), fetcher: upstream, shared: database)
        let b = Self.server(upstream, database, timeout: .seconds(600))
        let first = Task { try await a.fetch(Self.request, cache: Self.policy) }
        while await upstream.count == 0 { await Task.yield() }
        let second = Task { try await b.fetch(Self.request, cache: Self.policy) }
        while database.refused.load(ordering: .relaxed) == 0 { await Task.yield() }
        await upstream.release()
        #expect(try await first.value.response.status == 503)
        let fromB = try await second.value
        #expect(fromB.response.status == 200 && fromB.origin == .upstream)
        #expect(await upstream.count == 2)
    }

    @Test("a server whose claim is never answered (it died fetching) leaves the fetch to another after the request's timeout")
    func claimerDied() async throws {
        let repository = InMemoryUpstreamAnswerRepository()
        #expect(try await repository.claim(source: "national-rail", key: Self.policy.key, until: .now().adding(seconds: 3_600), now: .now()))
        let upstream = Upstream(open: true)
        let b = Self.server(upstream, Watched(repository), timeout: .milliseconds(300))
        let result = try await b.fetch(Self.request, cache: Self.policy)
        #expect(result.origin == .upstream)
        #expect(await upstream.count == 1)
        // What it fetched is there for the others.
        #expect(try await repository.answer(source: "national-rail", key: Self.policy.key)?.body == result.response.body)
    }
}
