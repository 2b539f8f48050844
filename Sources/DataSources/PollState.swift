import OnwardCore

/// What a poller knows about one endpoint, as a pure state machine: it is fed
/// events and says how long to wait before the next fetch. No I/O and no clock
/// inside, so every transition is tested without a network or sleeping.
public struct PollState: Sendable, Hashable {
    /// The outcome of one fetch.
    public enum Event: Sendable, Hashable {
        /// New data was fetched and accepted.
        case succeeded(at: Instant)
        /// Upstream confirmed the data we hold is still its current data (HTTP 304,
        /// an unchanged file, or a byte-identical body).
        case notModified(at: Instant)
        /// Nothing usable arrived; the last good data stays in place.
        case failed(SourceError, at: Instant)
    }

    /// How fresh the data is, as a board shows it ("live data 5 min old").
    public enum Health: Sendable, Hashable {
        /// Confirmed current within the allowed age.
        case fresh
        /// The last confirmation is older than the allowed age; the data is still shown, with its age.
        case stale(age: Duration)
        /// No data has ever been fetched: the last error, or nil before the first attempt.
        case unavailable(SourceError?)
    }

    /// The wait after a success or a not-modified answer.
    public var interval: Duration
    /// The waits after consecutive failures.
    public var backoff: Backoff

    /// Failures since the last success or not-modified answer.
    public private(set) var consecutiveFailures = 0
    /// When new data was last accepted. A not-modified answer leaves it alone:
    /// the data did not change then.
    public private(set) var lastSuccess: Instant?
    /// When upstream last confirmed our data current (a success or a not-modified
    /// answer): what freshness is measured from.
    public private(set) var lastConfirmed: Instant?
    /// The most recent error, kept after recovery so it can be reported.
    public private(set) var lastError: SourceError?
    /// When `lastError` happened.
    public private(set) var lastFailure: Instant?
    /// When the last fetch of any outcome finished.
    public private(set) var lastAttempt: Instant?
    /// How long to wait before the next fetch; zero before the first.
    public private(set) var nextDelay: Duration = .zero
    /// Counts since start, for status pages.
    public private(set) var successes = 0
    public private(set) var notModifiedCount = 0
    public private(set) var failures = 0

    public init(interval: Duration = .seconds(30), backoff: Backoff = Backoff()) {
        self.interval = interval
        self.backoff = backoff
    }

    /// Applies one event, drawing backoff jitter from `random`.
    public mutating func record(_ event: Event, using random: inout some RandomNumberGenerator) {
        switch event {
        case .succeeded(let at):
            successes += 1
            lastSuccess = at
            confirm(at)
        case .notModified(let at):
            notModifiedCount += 1
            confirm(at)
        case .failed(let error, let at):
            failures += 1
            consecutiveFailures += 1
            lastError = error
            lastFailure = at
            lastAttempt = at
            nextDelay = backoff.delay(afterFailures: consecutiveFailures, using: &random)
        }
    }

    /// Applies one event with the system's random generator.
    public mutating func record(_ event: Event) {
        var random = SystemRandomNumberGenerator()
        record(event, using: &random)
    }

    private mutating func confirm(_ at: Instant) {
        // Success resets the backoff: the next failure starts again from `base`.
        consecutiveFailures = 0
        lastConfirmed = at
        lastAttempt = at
        nextDelay = interval
    }

    /// Fresh when confirmed within `maxAge` of `now`, stale (with the age) when
    /// older, unavailable when never fetched.
    public func health(now: Instant, maxAge: Duration) -> Health {
        guard let lastConfirmed else { return .unavailable(lastError) }
        let age = Duration.seconds(max(0, now.epochSeconds - lastConfirmed.epochSeconds))
        return age <= maxAge ? .fresh : .stale(age: age)
    }
}
