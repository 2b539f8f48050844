import Synchronization

/// Feed versions kept in memory for the life of the process: for tests.
public final class InMemoryFeedVersionRepository: FeedVersionRepository {
    private let records = Mutex<[String: FeedVersionRecord]>([:])

    public init() {}

    public func save(_ record: FeedVersionRecord) async throws { records.withLock { $0[record.feed] = record } }

    public func heads() async throws -> [FeedVersionHead] { records.withLock { $0.values.sorted { $0.feed < $1.feed }.map(\.head) } }

    public func record(feed: String) async throws -> FeedVersionRecord? { records.withLock { $0[feed] } }
}
