import DataSources
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RecordedResponseServer {
    /// What a route answers.
    public struct Reply: Sendable {
        public var status: Int
        /// Header names as sent; `Content-Length` and `Connection` are the server's.
        public var headers: [String: String]
        public var body: Data
        /// How long the server waits before answering (a slow or hung upstream).
        public var delay: Duration
        /// When set, only this many body bytes are sent before the connection is
        /// closed, though `Content-Length` promises the whole body.
        public var truncatedAfter: Int?

        public init(status: Int = 200, contentType: String = "application/octet-stream", headers: [String: String] = [:],
                    body: Data = Data(), delay: Duration = .zero, truncatedAfter: Int? = nil) {
            self.status = status
            self.headers = ["Content-Type": contentType].merging(headers) { _, given in given }
            self.body = body
            self.delay = delay
            self.truncatedAfter = truncatedAfter
        }

        /// A recorded file's bytes; the content type follows the extension unless given.
        public static func file(_ url: URL, status: Int = 200, contentType: String? = nil) throws -> Reply {
            let type = contentType ?? Self.contentType(forExtension: url.pathExtension)
            return Reply(status: status, contentType: type, body: try Data(contentsOf: url))
        }

        /// A short text body.
        public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Reply {
            Reply(status: status, contentType: contentType, body: Data(text.utf8))
        }

        /// An error status (500, 503, 429…) with a small HTML page, as proxies send;
        /// `retryAfter` adds a `Retry-After` header in seconds.
        public static func status(_ status: Int, retryAfter: Int? = nil) -> Reply {
            var headers: [String: String] = [:]
            if let retryAfter { headers["Retry-After"] = String(retryAfter) }
            return Reply(status: status, contentType: "text/html; charset=utf-8", headers: headers,
                         body: Data("<html><body><h1>\(status)</h1></body></html>".utf8))
        }

        /// A 200 whose body starts as the declared type and breaks off mid-element:
        /// what a parser must reject without crashing.
        public static func malformed(contentType: String = "text/xml; charset=utf-8") -> Reply {
            let body = contentType.contains("json")
                ? #"{"bustime-response": {"prd": [{"tmstmp": "20250101 12:00", "#
                : #"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetStationBoardResult><lt4:generatedAt>2025-"#
            return Reply(contentType: contentType, body: Data(body.utf8))
        }

        /// This reply, answered only after `delay`.
        public func delayed(by delay: Duration) -> Reply {
            var reply = self
            reply.delay = delay
            return reply
        }

        /// This reply with the connection closed after `bytes` of the body.
        public func truncated(after bytes: Int) -> Reply {
            var reply = self
            reply.truncatedAfter = max(0, bytes)
            return reply
        }

        static func contentType(forExtension pathExtension: String) -> String {
            switch pathExtension.lowercased() {
            case "xml": "text/xml; charset=utf-8"
            case "json": "application/json"
            case "html": "text/html; charset=utf-8"
            case "txt", "csv": "text/plain; charset=utf-8"
            case "pb": "application/x-protobuf"
            default: "application/octet-stream"
            }
        }
    }

    /// A request as the server received it.
    public struct ReceivedRequest: Sendable, Hashable {
        public var method: String
        /// The path, percent-decoded.
        public var path: String
        /// The query items, decoded; the last wins for a repeated name.
        public var query: [String: String]
        /// Header names in lower case.
        public var headers: [String: String]
        public var body: Data

        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }
}
