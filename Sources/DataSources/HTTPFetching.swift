import Foundation

/// A request to an upstream source. Kept small and value-typed so fakes can match on it.
public struct HTTPRequest: Sendable, Hashable {
    public var url: URL
    /// Header names as sent (e.g. "If-None-Match").
    public var headers: [String: String]
    public var timeout: Duration

    public init(url: URL, headers: [String: String] = [:], timeout: Duration = .seconds(10)) {
        self.url = url; self.headers = headers; self.timeout = timeout
    }
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

/// Why a source could not deliver: a stable code and a short, safe description.
/// Mapped to HTTP status only in the server, and to traveller-facing text in one place.
public struct SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, Codable {
        case network, timeout, httpStatus, undecodable, notFound, unreadable, stale, rejected
    }

    public var code: Code
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?

    public init(_ code: Code, _ message: String, status: Int? = nil) {
        self.code = code; self.message = message; self.status = status
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
