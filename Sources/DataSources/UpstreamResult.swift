/// What `UpstreamClient.fetch` returns: the response and where it came from,
/// so an adapter can say "live" or "5 min old".
public struct UpstreamResult: Sendable, Hashable {
    public enum Origin: String, Sendable, Hashable {
        /// Fetched for this call, or by a concurrent call for the same key whose fetch this one shared.
        case upstream
        /// A cached answer within its TTL.
        case cache
        /// A cached answer past its TTL: served while a refresh runs, or because
        /// upstream failed or the request budget is spent.
        case stale
    }

    public var response: HTTPResponse
    public var origin: Origin
    /// How old the answer is: zero for one just fetched.
    public var age: Duration

    public init(response: HTTPResponse, origin: Origin, age: Duration = .zero) {
        self.response = response; self.origin = origin; self.age = age
    }

    public var isFromCache: Bool { origin != .upstream }
    public var isStale: Bool { origin == .stale }
}
