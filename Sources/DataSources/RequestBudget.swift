import OnwardCore

/// A source's request allowance over a rolling window: at most `limit` requests
/// in any `window` (CTA Bus Tracker allows 10,000 a day per key).
///
/// Rolling rather than reset at midnight because upstreams count that way or
/// in a time zone we do not know; a rolling count can only be stricter. Each
/// request is remembered until it leaves the window, so memory is bounded by
/// `limit` timestamps (80 KB for 10,000).
public struct RequestBudget: Sendable, Hashable {
    /// What health pages show about a budget.
    public struct Status: Sendable, Hashable {
        public var limit: Int
        public var window: Duration
        /// Requests made in the window ending now.
        public var used: Int
        public var remaining: Int { max(0, limit - used) }
        /// When the oldest counted request leaves the window and frees a slot;
        /// nil when nothing is counted.
        public var nextRelease: Instant?
    }

    public let limit: Int
    public let window: Duration
    /// Epoch seconds of each counted request, oldest first, from `head` on.
    private var stamps: [Int64] = []
    private var head = 0

    /// - Parameters:
    ///   - limit: requests allowed per window; zero refuses everything.
    ///   - window: a day unless the upstream says otherwise.
    public init(limit: Int, window: Duration = .seconds(86_400)) {
        self.limit = max(0, limit)
        self.window = max(window, .seconds(1))
    }

    private var windowSeconds: Int64 {
        let c = window.components
        return c.seconds + (c.attoseconds > 0 ? 1 : 0)
    }

    /// The index of the first request still inside the window at `now`
    /// (stamps are in order, so a binary search finds it).
    private func firstLive(at now: Instant) -> Int {
        let cutoff = now.epochSeconds - windowSeconds
        var low = head, high = stamps.count
        while low < high {
            let mid = (low + high) / 2
            if stamps[mid] <= cutoff { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Requests counted in the window ending at `now`.
    public func used(at now: Instant) -> Int { stamps.count - firstLive(at: now) }

    /// Requests still allowed in the window ending at `now`.
    public func remaining(at now: Instant) -> Int { max(0, limit - used(at: now)) }

    /// When the next request will be allowed: `now` if one is allowed already,
    /// else when enough counted requests have left the window; nil for a zero limit (never).
    public func nextAllowed(at now: Instant) -> Instant? {
        guard limit > 0 else { return nil }
        let first = firstLive(at: now)
        guard stamps.count - first >= limit else { return now }
        // With a limit of N, a slot frees when the request N-from-the-end ages out.
        return Instant(epochSeconds: stamps[stamps.count - limit] + windowSeconds)
    }

    public func status(at now: Instant) -> Status {
        let first = firstLive(at: now)
        let nextRelease = first < stamps.count ? Instant(epochSeconds: stamps[first] + windowSeconds) : nil
        return Status(limit: limit, window: window, used: stamps.count - first, nextRelease: nextRelease)
    }

    /// Counts one request at `now` if the budget allows it; false (and nothing
    /// counted) when it is used up.
    public mutating func consume(at now: Instant) -> Bool {
        head = firstLive(at: now)
        // Forget the requests that left the window once they are half the array,
        // so the array neither grows without end nor is shifted on every request.
        if head > 1024, head * 2 > stamps.count {
            stamps.removeFirst(head)
            head = 0
        }
        guard stamps.count - head < limit else { return false }
        // A clock that stepped back must not unsort the stamps (the search relies on order).
        stamps.append(max(now.epochSeconds, stamps.last ?? now.epochSeconds))
        return true
    }
}
