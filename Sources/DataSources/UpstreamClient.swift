import Foundation
import OnwardCore

/// One upstream source as its adapter should talk to it: an `HTTPFetching`
/// wrapped with a response cache (TTL and stale-while-revalidate), request
/// coalescing, a rolling request budget and bounded retries.
///
/// A hundred travellers watching one station cost one upstream request per
/// TTL, not a hundred (and with `shared`, one across every server on a
/// database); a spent budget or a failing upstream still lets the cache
/// answer, marked stale with its age. Every error it throws names the
/// source, never a URL, and has the configured secrets redacted.
public actor UpstreamClient {
    /// How one source is to be treated.
    public struct Configuration: Sendable {
        /// The source's name from configuration (`national-rail`, `cta`), used in messages.
        public var name: String
        /// Requests allowed per rolling window; nil for no budget.
        public var requestLimit: Int?
        /// The budget's window: a day unless the upstream counts otherwise.
        public var budgetWindow: Duration
        public var retry: RetryPolicy
        /// Replaces each request's own timeout when set, so one source has one
        /// timeout whatever its adapter builds. Enforced by the fetcher.
        public var timeout: Duration?
        /// The most answers kept; the oldest goes first.
        public var cacheCapacity: Int
        /// Strings (API keys, tokens) removed from every error message passed on.
        public var secrets: [String]

        public init(name: String, requestLimit: Int? = nil, budgetWindow: Duration = .seconds(86_400),
                    retry: RetryPolicy = RetryPolicy(), timeout: Duration? = nil, cacheCapacity: Int = 1_000,
                    secrets: [String] = []) {
            self.name = name; self.requestLimit = requestLimit; self.budgetWindow = budgetWindow
            self.retry = retry; self.timeout = timeout; self.cacheCapacity = cacheCapacity; self.secrets = secrets
        }
    }

    public nonisolated let configuration: Configuration
    public nonisolated var name: String { configuration.name }

    private let fetcher: any HTTPFetching
    /// The answers shared with other servers on one database; nil for a lone server.
    private let shared: (any SharedUpstreamAnswers)?
    private let now: @Sendable () -> Instant
    private let sleep: @Sendable (Duration) async throws -> Void
    private var random: SendableRandom

    private var cache: UpstreamCache
    private var budget: RequestBudget?
    /// The fetch under way per cache key: later callers for the key wait for it
    /// instead of sending their own. A task owned here, not by a caller, so one
    /// caller giving up does not fail the others.
    private var inFlight: [String: Task<Result<Fetched, SourceError>, Never>] = [:]
    private var stats = UpstreamCounters()

    /// - Parameters:
    ///   - fetcher: the network seam; a fake in tests.
    ///   - now: the wall clock that ages answers and counts the budget.
    ///   - sleep: waits between retries; tests pass one that returns at once (and records the wait).
    ///   - random: the jitter source for retry backoff.
    ///   - shared: answers shared with the other servers on one database (each key fetched by one of them).
    public init(configuration: Configuration, fetcher: any HTTPFetching, shared: (any SharedUpstreamAnswers)? = nil,
                now: @escaping @Sendable () -> Instant = { Instant.now() },
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        self.fetcher = fetcher
        self.shared = shared
        self.now = now
        self.sleep = sleep
        self.random = SendableRandom(random)
        self.cache = UpstreamCache(capacity: configuration.cacheCapacity)
        self.budget = configuration.requestLimit.map { RequestBudget(limit: $0, window: configuration.budgetWindow) }
    }

    // MARK: Reading state

    /// What the client has done so far.
    public var counters: UpstreamCounters { stats }

    /// The budget as it stands now; nil when the source has none.
    public var budgetStatus: RequestBudget.Status? { budget?.status(at: now()) }

    /// Requests still allowed now; nil when the source has no budget.
    public var budgetRemaining: Int? { budget?.remaining(at: now()) }

    /// `text` with the configured secrets redacted, for adapters that quote an upstream's answer in a message.
    public nonisolated func redact(_ text: String) -> String { text.redacting(configuration.secrets) }

    // MARK: Fetching

    /// Fetches `request`, answering from the cache when `cache` allows.
    ///
    /// Any HTTP status comes back as a response for the adapter to judge, but
    /// only a 2xx answer is cached. Without a policy, or for a request that is
    /// not retry-safe (a POST that writes), nothing is cached or shared: two
    /// writes are two writes.
    ///
    /// A cached call shares its fetch with concurrent callers of the same key, so
    /// cancelling one caller does not cancel the fetch: the caller still waits for
    /// it, which the request's timeout and the bounded retries keep short.
    ///
    /// ```swift
    /// let result = try await client.fetch(soapRequest, cache: CachePolicy(
    ///     key: "board:\(crs):dep", ttl: .seconds(30), staleWhileRevalidate: .seconds(60)))
    /// // result.isStale → show "updated \(result.age) ago"
    /// ```
    ///
    /// - Throws: the fetcher's error after any retries; `.budgetExhausted` when
    ///   the budget is spent and nothing is cached for the key.
    public func fetch(_ request: HTTPRequest, cache policy: CachePolicy? = nil) async throws(SourceError) -> UpstreamResult {
        var request = request
        if let timeout = configuration.timeout { request.timeout = timeout }
        guard let policy, request.isRetrySafe else {
            switch await send(request) {
            case .success(let response): return UpstreamResult(response: response, origin: .upstream)
            case .failure(let error):
                stats.failures += 1
                throw error
            }
        }

        let key = policy.key
        if let entry = cache[key] {
            let age = entry.age(at: now())
            if age < policy.ttl {
                stats.cacheHits += 1
                return UpstreamResult(response: entry.response, origin: .cache, age: age)
            }
            if age < policy.ttl + policy.staleWhileRevalidate {
                stats.staleServed += 1
                if inFlight[key] == nil { startFetch(request, key: key, ttl: policy.ttl) }
                return UpstreamResult(response: entry.response, origin: .stale, age: age)
            }
        }

        let task: Task<Result<Fetched, SourceError>, Never>
        if let running = inFlight[key] {
            stats.coalescedWaits += 1
            task = running
        } else {
            task = startFetch(request, key: key, ttl: policy.ttl)
        }
        let outcome = await task.value
        if let stale = staleFallback(for: outcome.map(\.response), key: key, policy: policy) {
            stats.staleServed += 1
            return stale
        }
        switch outcome {
        case .success(let fetched):
            // Another server's answer is as old as it is, from the database as from a cache.
            guard let at = fetched.fetchedElsewhereAt else { return UpstreamResult(response: fetched.response, origin: .upstream) }
            return UpstreamResult(response: fetched.response, origin: .cache, age: UpstreamCache.Entry(response: fetched.response, storedAt: at).age(at: now()))
        case .failure(let error):
            stats.failures += 1
            throw error
        }
    }

    /// Waits for every fetch under way, background refreshes included: for a
    /// clean shutdown, and for tests that check what a refresh stored.
    public func awaitPendingFetches() async {
        while let task = inFlight.values.first { _ = await task.value }
    }

    /// Forgets the answer cached under `key`, so the next call fetches.
    public func removeCached(_ key: String) { cache.remove(key) }

    // MARK: Inside

    /// Starts the shared fetch for `key`; it stores a 2xx answer and clears itself when done.
    @discardableResult
    private func startFetch(_ request: HTTPRequest, key: String, ttl: Duration) -> Task<Result<Fetched, SourceError>, Never> {
        // Listed before the task can run (it needs this actor, which is busy until
        // the caller suspends), so no second caller starts a second fetch.
        let task = Task { await self.fetchAndStore(request, key: key, ttl: ttl) }
        inFlight[key] = task
        return task
    }

    /// What a shared fetch gave: an answer from the upstream now, or one another server fetched (with its age).
    private struct Fetched: Sendable {
        var response: HTTPResponse
        var fetchedElsewhereAt: Instant?
    }

    private func fetchAndStore(_ request: HTTPRequest, key: String, ttl: Duration) async -> Result<Fetched, SourceError> {
        defer { inFlight[key] = nil }
        if let shared, let entry = await sharedAnswer(key, ttl: ttl, request: request, shared) {
            stats.sharedAnswers += 1
            cache.store(entry.response, for: key, at: entry.storedAt)
            return .success(Fetched(response: entry.response, fetchedElsewhereAt: entry.storedAt))
        }
        let outcome = await send(request)
        if case .success(let response) = outcome, (200..<300).contains(response.status) {
            let entry = UpstreamCache.Entry(response: response, storedAt: now())
            cache.store(response, for: key, at: entry.storedAt)
            await shared?.store(source: name, key: key, entry)
        } else {
            // No answer to share: a server waiting for one tries for itself at once.
            await shared?.release(source: name, key: key)
        }
        return outcome.map { Fetched(response: $0) }
    }

    /// How often a server waiting for another's fetch looks for its answer.
    static let sharedPoll = Duration.milliseconds(100)

    /// A fresh answer another server fetched for `key`: there already, or, while another server holds the
    /// claim to fetch it, waited for. This server fetches instead (nil: it then holds the claim) once the
    /// claim is given up without an answer (that fetch failed), or after the request's timeout (the other
    /// server may have died).
    private func sharedAnswer(_ key: String, ttl: Duration, request: HTTPRequest, _ shared: any SharedUpstreamAnswers) async -> UpstreamCache.Entry? {
        func fresh() async -> UpstreamCache.Entry? {
            guard let entry = await shared.answer(source: name, key: key), entry.age(at: now()) < ttl else { return nil }
            return entry
        }
        if let entry = await fresh() { return entry }
        // The claim lasts as long as a fetch may: each attempt's timeout, and the waits between retries.
        let attempts = configuration.retry.maxRetries + 1
        let claim = Int64((request.timeout * attempts).components.seconds) + Int64(attempts) * 2
        if await shared.claim(source: name, key: key, until: now().adding(seconds: claim)) { return nil }
        for _ in 0..<Int(request.timeout / Self.sharedPoll) {
            do { try await Task.sleep(for: Self.sharedPoll) } catch { return nil }
            if let entry = await fresh() { return entry }
            if await shared.claim(source: name, key: key, until: now().adding(seconds: claim)) { return nil }
        }
        return nil
    }

    /// A stale answer in place of a failure, when the policy or a spent budget allows one.
    private func staleFallback(for outcome: Result<HTTPResponse, SourceError>, key: String,
                               policy: CachePolicy) -> UpstreamResult? {
        guard let entry = cache[key] else { return nil }
        let age = entry.age(at: now())
        switch outcome {
        case .failure(let error) where error.code == .budgetExhausted:
            // Any age: an old answer, marked with its age, beats none until the budget frees.
            return UpstreamResult(response: entry.response, origin: .stale, age: age)
        case .failure(let error) where error.isTransient && age < policy.ttl + policy.staleIfError:
            return UpstreamResult(response: entry.response, origin: .stale, age: age)
        case .success(let response) where RetryPolicy.isTransient(status: response.status)
                                          && age < policy.ttl + policy.staleIfError:
            return UpstreamResult(response: entry.response, origin: .stale, age: age)
        default:
            return nil
        }
    }

    /// Sends `request`, retrying transient failures of a retry-safe request.
    /// Every attempt is charged to the budget; a spent budget ends the retries
    /// with the last answer, or refuses the first attempt with `.budgetExhausted`.
    private func send(_ request: HTTPRequest) async -> Result<HTTPResponse, SourceError> {
        let maxRetries = request.isRetrySafe ? configuration.retry.maxRetries : 0
        var failures = 0
        var last: Result<HTTPResponse, SourceError>?
        while true {
            if let refusal = chargeBudget() {
                stats.budgetRefusals += 1
                return last ?? .failure(refusal)
            }
            stats.upstreamRequests += 1
            if failures > 0 { stats.retries += 1 }
            let outcome: Result<HTTPResponse, SourceError>
            do {
                outcome = .success(try await fetcher.fetch(request))
            } catch {
                outcome = .failure(redacted(error))
            }
            last = outcome
            guard failures < maxRetries,
                  let delay = configuration.retry.delay(after: outcome, failures: failures + 1, now: now(), using: &random)
            else { return outcome }
            failures += 1
            do { try await sleep(delay) } catch { return outcome }
        }
    }

    /// Counts one request against the budget, or says why it may not be sent.
    private func chargeBudget() -> SourceError? {
        let now = now()
        // Mutated in place through the optional: a copy would copy every stamp it holds.
        guard let allowed = budget?.consume(at: now) else { return nil }
        guard !allowed, let budget else { return nil }
        let window = budget.window == .seconds(86_400) ? "rolling day" : "\(budget.window)"
        let when = budget.nextAllowed(at: now).map { "until \($0)" } ?? "at all (its limit is zero)"
        return SourceError(.budgetExhausted, "\(name) has used its \(budget.limit) requests per \(window); none are sent \(when)")
    }

    private func redacted(_ error: SourceError) -> SourceError {
        guard !configuration.secrets.isEmpty else { return error }
        var error = error
        error.message = error.message.redacting(configuration.secrets)
        return error
    }
}
