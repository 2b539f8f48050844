import DataSources
import Foundation
import Testing

/// The fake side of the network seam: each URL a test expects is stubbed with a
/// reply; any other request is recorded as a test issue and fails, so a test
/// cannot pass while talking to something it did not mean to.
///
/// Lives in the test target because OnwardTesting does not depend on DataSources yet;
/// it moves there unchanged once it does.
actor FakeHTTPFetcher: HTTPFetching {
    typealias Reply = @Sendable (HTTPRequest) -> Result<HTTPResponse, SourceError>

    private var replies: [URL: Reply] = [:]
    /// Every request received, in order, with its headers.
    private(set) var requests: [HTTPRequest] = []

    /// Answers `url` by calling `reply` with the request (to honour conditional headers, say).
    func stub(_ url: URL, _ reply: @escaping Reply) { replies[url] = reply }

    /// Answers `url` with a fixed response.
    func stub(_ url: URL, status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
        let response = HTTPResponse(status: status, headers: headers, body: body)
        replies[url] = { _ in .success(response) }
    }

    /// Fails every request to `url` with `error`.
    func stub(_ url: URL, error: SourceError) { replies[url] = { _ in .failure(error) } }

    func fetch(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
        requests.append(request)
        guard let reply = replies[request.url] else {
            Issue.record("FakeHTTPFetcher: unexpected request to \(request.url)")
            throw SourceError(.rejected, "FakeHTTPFetcher has no reply for \(request.url)")
        }
        return try reply(request).get()
    }
}

/// A server that honours `If-None-Match` for the one body it serves now.
final class ETagServer: @unchecked Sendable {
    private let lock = NSLock()
    private var body = Data()
    private var etag = ""

    func serve(_ text: String, etag: String) { lock.withLock { body = Data(text.utf8); self.etag = etag } }

    func reply(_ request: HTTPRequest) -> Result<HTTPResponse, SourceError> {
        lock.withLock {
            if request.headers["If-None-Match"] == etag { return .success(HTTPResponse(status: 304, headers: ["ETag": etag])) }
            return .success(HTTPResponse(status: 200, headers: ["ETag": etag], body: body))
        }
    }
}
