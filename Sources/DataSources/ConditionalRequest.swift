import Foundation

/// Remembers the validators (`ETag`, `Last-Modified`) of the last good response
/// and turns them into `If-None-Match` / `If-Modified-Since` on the next request,
/// so an unchanged feed costs a 304 and no body.
///
/// Only remember a response once its body has been accepted: validators of a body
/// that failed to decode would make the server answer 304 to it for ever.
public struct ConditionalRequest: Sendable, Hashable {
    /// The `ETag` of the last remembered response, verbatim (quotes and `W/` kept).
    public private(set) var etag: String?
    /// The `Last-Modified` of the last remembered response, verbatim (an HTTP date).
    public private(set) var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag; self.lastModified = lastModified
    }

    /// Records the validators of a 200 response; other statuses are ignored.
    public mutating func remember(_ response: HTTPResponse) {
        guard response.status == 200 else { return }
        etag = response.headers["etag"]
        lastModified = response.headers["last-modified"]
    }

    /// Forgets the validators, so the next request fetches the whole body.
    public mutating func reset() {
        etag = nil; lastModified = nil
    }

    /// `request` with the conditional headers added (replacing any of the same name).
    public func applied(to request: HTTPRequest) -> HTTPRequest {
        var request = request
        if let etag { request.setHeader("If-None-Match", etag) }
        if let lastModified { request.setHeader("If-Modified-Since", lastModified) }
        return request
    }
}

extension HTTPRequest {
    /// Sets a header, replacing one whose name differs only in case (HTTP header names are case-insensitive).
    public mutating func setHeader(_ name: String, _ value: String) {
        for key in headers.keys where key.caseInsensitiveCompare(name) == .orderedSame { headers[key] = nil }
        headers[name] = value
    }
}
