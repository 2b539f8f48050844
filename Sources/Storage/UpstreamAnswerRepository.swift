import Foundation
import OnwardCore

/// An answer from an on-demand upstream (a National Rail board, a CTA prediction) that one server
/// fetched, kept for the other servers on the database: a board asked for on every server then
/// costs the upstream one request per freshness period, not one per server.
public struct UpstreamAnswerRecord: Sendable, Hashable {
    /// The source (`national-rail`) and its cache key (`board:KGX:dep`); never a URL, never a secret.
    public var source: String
    public var key: String
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    public var fetchedAt: Instant

    public init(source: String, key: String, status: Int, headers: [String: String], body: Data, fetchedAt: Instant) {
        self.source = source; self.key = key; self.status = status; self.headers = headers; self.body = body; self.fetchedAt = fetchedAt
    }
}

/// Keeps the latest answer per source and key, and who is fetching one. Drivers throw `StorageError`.
public protocol UpstreamAnswerRepository: Sendable {
    /// The latest answer stored for the key, or nil.
    func answer(source: String, key: String) async throws -> UpstreamAnswerRecord?
    /// Stores an answer unless a later one is stored, and ends any claim on its key.
    func save(_ record: UpstreamAnswerRecord) async throws
    /// Claims the fetch of a key until `until`: true for one caller at a time, while its claim has not
    /// expired at `now` (a server that died holding one stops holding it then).
    func claim(source: String, key: String, until: Instant, now: Instant) async throws -> Bool
    /// Ends a claim on a key, answered or not.
    func release(source: String, key: String) async throws
    /// Forgets answers fetched before `before` and expired claims; returns how many answers went.
    @discardableResult func removeOlder(than before: Instant) async throws -> Int
}

/// How drivers keep an answer's headers: one JSON object in a text column, keys sorted.
public enum UpstreamAnswerHeaders {
    public static func encode(_ headers: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(headers)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A column that does not read as headers gives none: the body is still the answer.
    public static func decode(_ text: String) -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }
}
