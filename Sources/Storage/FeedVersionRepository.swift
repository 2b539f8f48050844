import Foundation
import OnwardCore

/// One accepted version of a static feed, kept in the database that several servers share: the
/// server that fetched and accepted it stores it, the others load it from here (never from the
/// agency), so every instance serves the same bytes.
public struct FeedVersionRecord: Sendable, Hashable {
    /// The static feed's name (`halifax`); one record per feed, the newest accepted.
    public var feed: String
    /// SHA-256 of `payload`, in hex.
    public var hash: String
    public var fetchedAt: Instant
    /// The validators of the response that brought it (for the next conditional request, whichever server makes it).
    public var etag: String?
    public var lastModified: String?
    /// The feed's bytes (a GTFS zip) exactly as fetched.
    public var payload: Data

    public init(feed: String, hash: String, fetchedAt: Instant, etag: String? = nil, lastModified: String? = nil, payload: Data) {
        self.feed = feed; self.hash = hash; self.fetchedAt = fetchedAt; self.etag = etag; self.lastModified = lastModified; self.payload = payload
    }

    /// What says which version is stored, without its bytes.
    public var head: FeedVersionHead { FeedVersionHead(feed: feed, hash: hash, fetchedAt: fetchedAt, etag: etag, lastModified: lastModified) }
}

/// A stored version without its bytes: what a server compares with the version it serves.
public struct FeedVersionHead: Sendable, Hashable {
    public var feed: String
    public var hash: String
    public var fetchedAt: Instant
    public var etag: String?
    public var lastModified: String?

    public init(feed: String, hash: String, fetchedAt: Instant, etag: String? = nil, lastModified: String? = nil) {
        self.feed = feed; self.hash = hash; self.fetchedAt = fetchedAt; self.etag = etag; self.lastModified = lastModified
    }
}

/// Keeps the accepted version of each static feed. Drivers throw `StorageError`.
public protocol FeedVersionRepository: Sendable {
    /// Stores `record`, replacing the feed's earlier version.
    func save(_ record: FeedVersionRecord) async throws
    /// Every stored version's head, ordered by feed (cheap: no bytes).
    func heads() async throws -> [FeedVersionHead]
    /// The feed's stored version with its bytes, or nil.
    func record(feed: String) async throws -> FeedVersionRecord?
}
