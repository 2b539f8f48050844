import DataSources
import Foundation
import Testing
import OnwardCore

/// The fake side of the network seam: each URL a test expects is stubbed with a
/// reply; any other request is recorded as a test issue and fails, so a test
/// cannot pass while talking to something it did not mean to.
public actor FakeHTTPFetcher: HTTPFetching {
    public typealias Reply = @Sendable (HTTPRequest) -> Result<HTTPResponse, SourceError>

    private var replies: [URL: Reply] = [:]
    /// Every request received, in order, with its headers.
    public private(set) var requests: [HTTPRequest] = []

    public init() {}

    /// Answers `url` by calling `reply` with the request (to honour conditional headers, say).
    public func stub(_ url: URL, _ reply: @escaping Reply) { replies[url] = reply }

    /// Answers `url` with a fixed response.
    public func stub(_ url: URL, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        let response = HTTPResponse(status: status, headers: headers, body: body)
        replies[url] = { _ in .success(response) }
    }

    /// Fails every request to `url` with `error`.
    public func stub(_ url: URL, error: SourceError) { replies[url] = { _ in .failure(error) } }

    public func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        requests.append(request)
        guard let reply = replies[request.url] else {
            Issue.record("FakeHTTPFetcher: unexpected request to \(request.url)")
            throw SourceError(.rejected, "FakeHTTPFetcher has no reply for \(request.url)")
        }
        return try reply(request).get()
    }
}
