import Foundation
import OnwardTesting
import Storage
import StorageSQLite
import Testing

@Suite("realtime feed repository contract")
struct RealtimeFeedRepositoryContractTests {
    @Test("in memory", arguments: RealtimeFeedRepositoryContract.checks)
    func inMemory(_ check: RealtimeFeedRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryRealtimeFeedRepository())
    }

    @Test("SQLite", arguments: RealtimeFeedRepositoryContract.checks)
    func sqlite(_ check: RealtimeFeedRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).realtimeFeeds)
    }
}
