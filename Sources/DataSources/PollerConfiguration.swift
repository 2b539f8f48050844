extension Poller {
    /// How often and how patiently one endpoint is polled.
    public struct Configuration: Sendable, Hashable {
        /// The wait between fetches while all is well.
        public var interval: Duration
        /// The longest a fetch may take; enforced by the `HTTPFetching` implementation.
        public var timeout: Duration
        /// The waits after consecutive failures (full jitter, capped).
        public var backoff: Backoff
        /// Headers sent with every request (an API key, an Accept), before the conditional ones.
        public var headers: [String: String]
        /// The largest body accepted (nil: no limit).
        public var maxBodyBytes: Int?

        public init(interval: Duration = .seconds(30), timeout: Duration = .seconds(10),
                    backoffBase: Duration = .seconds(5), backoffCap: Duration = .seconds(300),
                    headers: [String: String] = [:], maxBodyBytes: Int? = nil) {
            self.maxBodyBytes = maxBodyBytes
            self.interval = interval
            self.timeout = timeout
            self.backoff = Backoff(base: backoffBase, cap: backoffCap)
            self.headers = headers
        }
    }
}
