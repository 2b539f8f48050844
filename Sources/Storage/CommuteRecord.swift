import Foundation
import OnwardCore

/// One traveller's commute in progress, kept so a restarted server carries on with it.
///
/// The commute's state is the server's to read (`state` is its JSON); storage keeps it whole
/// and never looks inside, so the commute engine can grow without a schema change.
public struct CommuteRecord: Sendable, Hashable {
    /// The commute's ID: a secret that only its traveller's devices hold.
    public var id: String
    public var state: Data
    /// Counts the commute's changes: each save names the revision it follows (`save(_:over:)`), so two
    /// servers that change one state cannot both land, and the second one's change is not lost.
    public var revision: Int
    /// When it was last written.
    public var updatedAt: Instant
    /// After this the commute is over and may be forgotten.
    public var expiresAt: Instant

    public init(id: String, state: Data, revision: Int, updatedAt: Instant, expiresAt: Instant) {
        self.id = id; self.state = state; self.revision = revision; self.updatedAt = updatedAt; self.expiresAt = expiresAt
    }
}

/// Keeps the commutes in progress. Drivers throw `StorageError`, never their library's errors,
/// and a save returns only once the record is durable.
public protocol CommuteRepository: Sendable {
    /// Stores `record` when the stored revision of its commute is `previous` (nil: when none is stored),
    /// and returns true; otherwise stores nothing and returns false. A compare-and-set: a writer that
    /// read revision n and lost the race to another reads again and applies its change to the winner's.
    func save(_ record: CommuteRecord, over previous: Int?) async throws -> Bool
    /// The record with `id`, or nil when there is none.
    func record(id: String) async throws -> CommuteRecord?
    /// Every record that has not expired at `now`, ordered by ID.
    func active(at now: Instant) async throws -> [CommuteRecord]
    /// Forgets one commute; forgetting one that is not there is not an error.
    func remove(id: String) async throws
    /// Forgets every commute that expired before `now`; returns how many.
    @discardableResult func removeExpired(before now: Instant) async throws -> Int
    /// The server's Web Push (VAPID) private key as stored, storing `candidate` when none is yet:
    /// every server on one database then signs with the same key, the one its pages' push
    /// subscriptions were made with. The first server's candidate wins.
    func pushKey(orStore candidate: String) async throws -> String
}
