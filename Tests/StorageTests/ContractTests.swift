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
}
