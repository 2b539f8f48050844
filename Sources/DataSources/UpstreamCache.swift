import OnwardCore

/// The answers `UpstreamClient` keeps, by cache key, with when each arrived.
///
/// It holds no policy: freshness depends on the `CachePolicy` of each request,
/// so an entry outlives its TTL and can still be served stale when the request
/// budget is spent. Bounded by `capacity`; when full, the entry stored longest
/// ago goes first (it is the least likely to be fresh).
public struct UpstreamCache: Sendable {
    public struct Entry: Sendable, Hashable {
        public var response: HTTPResponse
        public var storedAt: Instant

        public init(response: HTTPResponse, storedAt: Instant) {
            self.response = response; self.storedAt = storedAt
        }

        /// How long ago the entry was stored, never negative (the clock may step back).
        public func age(at now: Instant) -> Duration {
            .seconds(max(0, now.epochSeconds - storedAt.epochSeconds))
        }
    }

    public let capacity: Int
    private var entries: [String: Entry] = [:]

    public init(capacity: Int = 1_000) { self.capacity = max(1, capacity) }

    public var count: Int { entries.count }

    public subscript(key: String) -> Entry? { entries[key] }

    /// Stores `response` under `key`, replacing what was there.
    public mutating func store(_ response: HTTPResponse, for key: String, at now: Instant) {
        if entries[key] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.storedAt < $1.value.storedAt })?.key {
            entries[oldest] = nil
        }
        entries[key] = Entry(response: response, storedAt: now)
    }

    public mutating func remove(_ key: String) { entries[key] = nil }

    public mutating func removeAll() { entries.removeAll() }
}
