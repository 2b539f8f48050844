import Foundation
import OnwardCore

/// One journey a person watches, kept whole: `state` is the server's JSON (the watch, where to push, what the
/// person was last told), opaque to storage, beside the columns it is looked up by.
public struct WatchRecord: Sendable, Hashable {
    public var id: String
    /// The person's account ID: only they see it.
    public var owner: String
    public var state: Data

    public init(id: String, owner: String, state: Data) { self.id = id; self.owner = owner; self.state = state }
}

/// Keeps watched journeys. Drivers throw `StorageError`, never their library's errors, and a save returns
/// only once the record is durable.
public protocol WatchRepository: Sendable {
    /// Stores `record`, replacing the one with its ID. A record's owner never changes: a save of an ID another
    /// person owns stores nothing and returns false.
    func save(_ record: WatchRecord) async throws -> Bool
    /// Stores the new states of watches that are still stored (one transaction), each with its owner; a watch
    /// removed meanwhile stays removed.
    func update(_ records: [WatchRecord]) async throws
    /// One person's watches, ordered by ID.
    func watches(owner: String) async throws -> [WatchRecord]
    /// Every watch, ordered by ID (for the server's checks).
    func all() async throws -> [WatchRecord]
    /// Forgets the watch `id` of `owner`; false when that person has none with that ID.
    func remove(id: String, owner: String) async throws -> Bool
}
