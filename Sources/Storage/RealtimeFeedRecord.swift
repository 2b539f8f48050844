import Foundation
import OnwardCore

/// The last good body fetched from one realtime source, kept so a restarted
/// server shows that data (marked stale by its real age) instead of none until
/// the source answers again.
public struct RealtimeFeedRecord: Sendable, Hashable {
    /// The source as configured (its URL or path); one record per source.
    public var source: String
    /// The bytes exactly as fetched, so they are decoded by the same code as a fresh fetch.
    public var payload: Data
    /// When the body was fetched and accepted.
    public var fetchedAt: Instant
    /// The feed's own header timestamp, when it has one.
    public var feedTimestamp: Instant?

    public init(source: String, payload: Data, fetchedAt: Instant, feedTimestamp: Instant? = nil) {
        self.source = source
        self.payload = payload
        self.fetchedAt = fetchedAt
        self.feedTimestamp = feedTimestamp
    }
}
