import DataSources
import Foundation
import OnwardCore
import Synchronization

/// How long each kind of answer is kept. Routes, directions and stops change with the
/// service changes a few times a year; the bus tracker refreshes predictions and
/// positions about once a minute; bulletins change a few times a day.
extension CTARequest.Endpoint {
    var cachePolicy: (ttl: Duration, staleWhileRevalidate: Duration, staleIfError: Duration)? {
        switch self {
        case .routes, .directions, .stops: (.seconds(12 * 3600), .seconds(12 * 3600), .seconds(7 * 86_400))
        case .predictions: (.seconds(30), .seconds(30), .seconds(300))
        case .vehicles: (.seconds(20), .seconds(20), .seconds(120))
        case .serviceBulletins: (.seconds(300), .seconds(300), .seconds(3600))
        case .time: nil
        }
    }
}

/// An answer and whether it is stale: an old answer from the cache, served because the
/// bus tracker failed or the day's requests were spent. (One served while a refresh runs,
/// a few seconds past its time, counts as current.)
public struct CTALoaded<Value: Sendable>: Sendable {
    public var value: Value
    public var isStale: Bool
    /// Seconds since the answer was fetched (0 when it was fetched for this call).
    public var ageSeconds: Int64

    public init(value: Value, isStale: Bool, ageSeconds: Int64 = 0) { self.value = value; self.isStale = isStale; self.ageSeconds = ageSeconds }
}

extension CTABusTrackerSource {
    /// Sends `request` (or answers it from the cache), parses the body and records the
    /// outcome for `status`. Every error thrown names `cta` and the operation and has the
    /// key redacted, whatever produced it.
    func load<Value: Sendable>(_ request: CTARequest,
                               parse: (Data, Instant) throws(SourceError) -> Value) async throws(SourceError) -> CTALoaded<Value> {
        let now = self.now()
        do {
            let loaded = try await fetchAndParse(request, now: now, parse: parse)
            let remaining = await client.budgetRemaining
            state.withLock {
                $0.lastSuccess = now
                $0.budgetRemaining = remaining
            }
            return loaded
        } catch {
            let safe = redacted(error)
            let remaining = await client.budgetRemaining
            state.withLock {
                $0.lastFailure = CTASourceState.Failure(at: now, error: safe)
                $0.budgetRemaining = remaining
            }
            throw safe
        }
    }

    private func fetchAndParse<Value>(_ request: CTARequest, now: Instant,
                                      parse: (Data, Instant) throws(SourceError) -> Value) async throws(SourceError) -> CTALoaded<Value> {
        let operation = request.operation
        guard !key.isEmpty else { throw SourceError(.configuration, "cta \(operation): no API key is configured") }
        if let until = state.withLock({ $0.dailyLimitUntil }), now < until {
            throw SourceError(.budgetExhausted, "cta \(operation): the API key's daily request limit is used up; "
                              + "no request is sent before midnight in Chicago (\(LocalTime(until, in: CTATime.timeZone).iso8601))")
        }
        let policy = request.endpoint.cachePolicy.map {
            CachePolicy(key: request.cacheKey, ttl: $0.ttl, staleWhileRevalidate: $0.staleWhileRevalidate, staleIfError: $0.staleIfError)
        }
        let http = HTTPRequest(url: request.url(base: base, key: key), headers: ["Accept": "application/json"], timeout: timeout)
        let result: UpstreamResult
        do {
            result = try await client.fetch(http, cache: policy)
        } catch {
            throw Self.transportError(error, operation: operation)
        }
        let status = result.response.status
        guard (200..<300).contains(status) else {
            throw SourceError(.httpStatus, "cta \(operation): the bus tracker answered HTTP \(status)", status: status)
        }
        let revalidating = policy.map { result.age < $0.ttl + $0.staleWhileRevalidate } ?? false
        do {
            return CTALoaded(value: try parse(result.response.body, now), isStale: result.isStale && !revalidating,
                             ageSeconds: result.age.components.seconds)
        } catch {
            // The bus tracker reports a refused key or a spent day inside a 200 answer,
            // which the client cached: forget it, so the next call asks again.
            if let policy { await client.removeCached(policy.key) }
            if error.code == .budgetExhausted {
                let until = CTATime.nextMidnight(after: now)
                state.withLock { $0.dailyLimitUntil = until }
            }
            throw error
        }
    }

    /// A transport failure in the adapter's words: the fetcher's own message may quote the URL.
    static func transportError(_ error: SourceError, operation: String) -> SourceError {
        let what: String
        switch error.code {
        case .timeout: what = "the bus tracker did not answer in time"
        case .network: what = "the bus tracker could not be reached"
        case .httpStatus: what = "the bus tracker answered HTTP \(error.status.map(String.init) ?? "with an error")"
        case .budgetExhausted: what = "the adapter's own daily request allowance is used up; no request was sent"
        default: what = "the request failed (\(error.code.rawValue))"
        }
        return SourceError(error.code, "cta \(operation): \(what)", status: error.status, parameter: error.parameter)
    }

    /// `error` with the key taken out of its message, wherever the text came from.
    func redacted(_ error: SourceError) -> SourceError {
        guard !key.isEmpty else { return error }
        var error = error
        error.message = error.message.redacting(key)
        return error
    }
}
