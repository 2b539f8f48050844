import Synchronization

/// Records kept in memory for the life of the process: for tests and for
/// running without a data folder.
public final class InMemoryRealtimeFeedRepository: RealtimeFeedRepository {
    private let records = Mutex<[String: RealtimeFeedRecord]>([:])

    public init(_ initial: [RealtimeFeedRecord] = []) {
        records.withLock { r in for record in initial { r[record.source] = record } }
    }

    public func save(_ record: RealtimeFeedRecord) async throws {
        records.withLock { $0[record.source] = record }
    }

    public func record(source: String) async throws -> RealtimeFeedRecord? {
        records.withLock { $0[source] }
    }

    public func all() async throws -> [RealtimeFeedRecord] {
        records.withLock { $0.values.sorted { $0.source < $1.source } }
    }

    public func remove(source: String) async throws {
        _ = records.withLock { $0.removeValue(forKey: source) }
    }
}
