import Foundation
import OnwardTesting
import Storage
import StoragePostgres
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

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: RealtimeFeedRepositoryContract.checks)
    func postgres(_ check: RealtimeFeedRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.realtimeFeeds) }
    }
}

@Suite("feed version repository contract")
struct FeedVersionRepositoryContractTests {
    @Test("in memory", arguments: FeedVersionRepositoryContract.checks)
    func inMemory(_ check: FeedVersionRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryFeedVersionRepository())
    }

    @Test("SQLite", arguments: FeedVersionRepositoryContract.checks)
    func sqlite(_ check: FeedVersionRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).feedVersions)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: FeedVersionRepositoryContract.checks)
    func postgres(_ check: FeedVersionRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.feedVersions) }
    }
}

@Suite("commute repository contract")
struct CommuteRepositoryContractTests {
    @Test("in memory", arguments: CommuteRepositoryContract.checks)
    func inMemory(_ check: CommuteRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryCommuteRepository())
    }

    @Test("SQLite", arguments: CommuteRepositoryContract.checks)
    func sqlite(_ check: CommuteRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).commutes)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: CommuteRepositoryContract.checks)
    func postgres(_ check: CommuteRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.commutes) }
    }
}

@Suite("people repository contract")
struct PeopleRepositoryContractTests {
    @Test("in memory", arguments: PeopleRepositoryContract.checks)
    func inMemory(_ check: PeopleRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryPeopleRepository())
    }

    @Test("SQLite", arguments: PeopleRepositoryContract.checks)
    func sqlite(_ check: PeopleRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).people)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: PeopleRepositoryContract.checks)
    func postgres(_ check: PeopleRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.people) }
    }
}

@Suite("trip repository contract")
struct TripRepositoryContractTests {
    @Test("in memory", arguments: TripRepositoryContract.checks)
    func inMemory(_ check: TripRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryTripRepository())
    }

    @Test("SQLite", arguments: TripRepositoryContract.checks)
    func sqlite(_ check: TripRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).trips)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: TripRepositoryContract.checks)
    func postgres(_ check: TripRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.trips) }
    }
}

@Suite("upstream answer repository contract")
struct UpstreamAnswerRepositoryContractTests {
    @Test("in memory", arguments: UpstreamAnswerRepositoryContract.checks)
    func inMemory(_ check: UpstreamAnswerRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryUpstreamAnswerRepository())
    }

    @Test("SQLite", arguments: UpstreamAnswerRepositoryContract.checks)
    func sqlite(_ check: UpstreamAnswerRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).upstreamAnswers)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: UpstreamAnswerRepositoryContract.checks)
    func postgres(_ check: UpstreamAnswerRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.upstreamAnswers) }
    }
}

@Suite("watch repository contract")
struct WatchRepositoryContractTests {
    @Test("in memory", arguments: WatchRepositoryContract.checks)
    func inMemory(_ check: WatchRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryWatchRepository())
    }

    @Test("SQLite", arguments: WatchRepositoryContract.checks)
    func sqlite(_ check: WatchRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).watches)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: WatchRepositoryContract.checks)
    func postgres(_ check: WatchRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.watches) }
    }
}

@Suite("delay history repository contract")
struct DelayHistoryRepositoryContractTests {
    @Test("in memory", arguments: DelayHistoryRepositoryContract.checks)
    func inMemory(_ check: DelayHistoryRepositoryContract.Check) async throws {
        try await check.run(on: InMemoryDelayHistoryRepository())
    }

    @Test("SQLite", arguments: DelayHistoryRepositoryContract.checks)
    func sqlite(_ check: DelayHistoryRepositoryContract.Check) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await check.run(on: try SQLiteStore(directory: folder.path).delayHistory)
    }

    @Test("PostgreSQL", .enabled(if: TestPostgres.enabled, TestPostgres.skipped), arguments: DelayHistoryRepositoryContract.checks)
    func postgres(_ check: DelayHistoryRepositoryContract.Check) async throws {
        try await TestPostgres.withStore { store in try await check.run(on: store.delayHistory) }
    }
}
