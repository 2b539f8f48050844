import Foundation
import OnwardCore

/// A request to an upstream source. Kept small and value-typed so fakes can match on it.
public struct HTTPRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case get = "GET", post = "POST", head = "HEAD", delete = "DELETE"

        /// Safe methods may be retried and cached; a POST is retried only when the
        /// caller says it is a read (`HTTPRequest.isIdempotentRead`), as a SOAP query is.
        /// A DELETE (`onward logout` ending its session) changes something: never safe.
        public var isSafe: Bool { self == .get || self == .head }
    }

    public var method: Method
    public var url: URL
    /// Header names as sent (e.g. "If-None-Match").
    public var headers: [String: String]
    public var body: Data?
    public var timeout: Duration
    /// Set for a POST that only reads (a SOAP query): it may then be retried and cached like a GET.
    public var isIdempotentRead: Bool
    /// The largest body accepted: a longer one is cut off as it arrives and fails as `.rejected`.
    public var maxBodyBytes: Int?

    public init(method: Method = .get, url: URL, headers: [String: String] = [:], body: Data? = nil,
                timeout: Duration = .seconds(10), isIdempotentRead: Bool = false, maxBodyBytes: Int? = nil) {
        self.method = method; self.url = url; self.headers = headers; self.body = body; self.timeout = timeout
        self.isIdempotentRead = isIdempotentRead; self.maxBodyBytes = maxBodyBytes
    }

    /// Whether repeating this request cannot change anything upstream.
    public var isRetrySafe: Bool { method.isSafe || isIdempotentRead }
}

public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }
}

/// The one network seam under every source adapter (as OBAKit's URLDataLoader):
/// a real implementation talks HTTP, a fake maps requests to recorded fixtures.
public protocol HTTPFetching: Sendable {
    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse
}

