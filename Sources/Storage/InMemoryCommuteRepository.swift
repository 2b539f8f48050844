import OnwardCore
import Synchronization

/// Commutes kept in memory for the life of the process: for tests and for running without a data folder.
public final class InMemoryCommuteRepository: CommuteRepository {
    private let records = Mutex<[String: CommuteRecord]>([:])
    private let storedPushKey = Mutex<String?>(nil)

    public init() {}

    public func save(_ record: CommuteRecord, over previous: Int?) async throws -> Bool {
        records.withLock { r in
            guard r[record.id]?.revision == previous else { return false }
            r[record.id] = record
            return true
        }
    }

    public func record(id: String) async throws -> CommuteRecord? {
        records.withLock { $0[id] }
    }

    public func active(at now: Instant) async throws -> [CommuteRecord] {
        records.withLock { $0.values.filter { $0.expiresAt >= now }.sorted { $0.id < $1.id } }
    }

    public func remove(id: String) async throws {
        _ = records.withLock { $0.removeValue(forKey: id) }
    }

    public func removeExpired(before now: Instant) async throws -> Int {
        records.withLock { r in
            let gone = r.values.filter { $0.expiresAt < now }.map(\.id)
            for id in gone { r.removeValue(forKey: id) }
            return gone.count
        }
    }

    public func pushKey(orStore candidate: String) async throws -> String {
        storedPushKey.withLock { key in
            if let key { return key }
            key = candidate
            return candidate
        }
    }
}
