/// Keeps the last good realtime feed of each source.
///
/// Every method is `async throws` so a driver over a network database
/// (PostgreSQL) fits the same shape as SQLite and memory. Drivers throw
/// `StorageError`, never their database library's errors, and never turn a
/// failure into an empty answer.
public protocol RealtimeFeedRepository: Sendable {
    /// Stores `record`, replacing any earlier record of the same source.
    func save(_ record: RealtimeFeedRecord) async throws
    /// The record of `source`, or nil when none was saved.
    func record(source: String) async throws -> RealtimeFeedRecord?
    /// Every record, ordered by source.
    func all() async throws -> [RealtimeFeedRecord]
    /// Forgets the record of `source`; forgetting one that is not there is not an error.
    func remove(source: String) async throws
}
