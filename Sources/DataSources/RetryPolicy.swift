import Foundation
import OnwardCore

/// When `UpstreamClient` tries a request again, and after how long.
///
/// Only retry-safe requests (`HTTPRequest.isRetrySafe`: a GET, or a POST marked
/// as a read) are retried, and only after a transient failure: a network error,
/// a timeout, a 5xx or a 429. A traveller is waiting, so retries are few and
/// short: a longer outage is the poller's business, not one request's.
public struct RetryPolicy: Sendable, Hashable {
    /// The most retries ever made for one request: a bound, not a default, so a
    /// configuration cannot turn one call into a storm against a failing upstream.
    public static let maximumRetries = 2

    /// Retries after the first attempt, at most `maximumRetries`.
    public var maxRetries: Int
    /// The jittered wait between attempts when the upstream does not say how long.
    public var backoff: Backoff
    /// The longest `Retry-After` waited for; a longer one returns the answer at
    /// once, since waiting less than asked would likely be refused again.
    public var retryAfterCap: Duration

    public init(maxRetries: Int = RetryPolicy.maximumRetries,
                backoff: Backoff = Backoff(base: .milliseconds(500), factor: 2, cap: .seconds(4)),
                retryAfterCap: Duration = .seconds(10)) {
        self.maxRetries = min(max(0, maxRetries), Self.maximumRetries)
        self.backoff = backoff
        self.retryAfterCap = max(retryAfterCap, .zero)
    }

    /// No retries at all.
    public static let none = RetryPolicy(maxRetries: 0)

    /// Whether an HTTP status is worth another attempt: the upstream's trouble
    /// (5xx) or its rate limit (429), not a fault in the question.
    public static func isTransient(status: Int) -> Bool { status >= 500 || status == 429 }

    /// How long to wait before retrying after `outcome`, the `failures`-th
    /// consecutive failure; nil when it should not be retried (a success, a
    /// permanent failure, or a `Retry-After` beyond the cap).
    public func delay(after outcome: Result<HTTPResponse, SourceError>, failures: Int, now: Instant,
                      using random: inout some RandomNumberGenerator) -> Duration? {
        switch outcome {
        case .failure(let error):
            guard error.isTransient else { return nil }
            return backoff.delay(afterFailures: failures, using: &random)
        case .success(let response):
            guard Self.isTransient(status: response.status) else { return nil }
            if let header = response.headers["retry-after"], let asked = Self.retryAfter(header, now: now) {
                return asked <= retryAfterCap ? asked : nil
            }
            return backoff.delay(afterFailures: failures, using: &random)
        }
    }

    /// A `Retry-After` value as a wait from `now`: delay-seconds (`120`) or an
    /// HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`). Nil when unreadable, so the
    /// usual backoff applies.
    public static func retryAfter(_ value: String, now: Instant) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int64(trimmed) { return .seconds(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .seconds(max(0, Instant(date).epochSeconds - now.epochSeconds))
    }
}
