import Synchronization

/// Watched journeys kept in memory for the life of the process: for tests and for running without a data folder.
public final class InMemoryWatchRepository: WatchRepository {
    private let records = Mutex<[String: WatchRecord]>([:])

    public init() {}

    public func save(_ record: WatchRecord) async throws -> Bool {
        records.withLock { r in
            if let kept = r[record.id], kept.owner != record.owner { return false }
            r[record.id] = record
            return true
        }
    }

    public func update(_ records: [WatchRecord]) async throws {
        self.records.withLock { r in
            for record in records where r[record.id]?.owner == record.owner { r[record.id] = record }
        }
    }

    public func watches(owner: String) async throws -> [WatchRecord] {
        records.withLock { $0.values.filter { $0.owner == owner }.sorted { $0.id < $1.id } }
    }

    public func all() async throws -> [WatchRecord] {
        records.withLock { $0.values.sorted { $0.id < $1.id } }
    }

    public func remove(id: String, owner: String) async throws -> Bool {
        records.withLock { r in
            guard r[id]?.owner == owner else { return false }
            r[id] = nil
            return true
        }
    }
}
