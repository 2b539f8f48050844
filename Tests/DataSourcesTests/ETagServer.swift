import DataSources
import Foundation
import OnwardCore

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
