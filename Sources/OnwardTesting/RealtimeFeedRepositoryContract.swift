import Foundation
import OnwardCore
import Storage
import Testing

/// What every `RealtimeFeedRepository` must do, written once and run against
/// each implementation (memory, SQLite, later PostgreSQL), so the drivers
/// cannot drift apart. Each check gets a new, empty repository.
///
///     @Test(arguments: RealtimeFeedRepositoryContract.checks)
///     func contract(_ check: RealtimeFeedRepositoryContract.Check) async throws {
///         try await check.run(on: makeEmptyRepository())
///     }
public enum RealtimeFeedRepositoryContract {
    /// One named rule of the contract.
    public typealias Check = ContractCheck<any RealtimeFeedRepository>

    public static let checks: [Check] = [
        Check(name: "an empty repository has no records") { repo async throws in
            #expect(try await repo.all().isEmpty)
            #expect(try await repo.record(source: "https://example.org/rt.pb") == nil)
        },
        Check(name: "a saved record reads back exactly, bytes and times") { repo async throws in
            let record = sample("https://example.org/trip-updates.pb", bytes: Data((0...255).map(UInt8.init) + [0, 0, 255]),
                                fetchedAt: 1_762_463_100, feedTimestamp: 1_762_463_054)
            try await repo.save(record)
            #expect(try await repo.record(source: record.source) == record)
            #expect(try await repo.all() == [record])
        },
        Check(name: "a missing feed timestamp stays missing") { repo async throws in
            let record = sample("feeds/no-header-time.pb", fetchedAt: 1_700_000_000, feedTimestamp: nil)
            try await repo.save(record)
            #expect(try await repo.record(source: record.source)?.feedTimestamp == nil)
        },
        Check(name: "saving a source again replaces its record") { repo async throws in
            try await repo.save(sample("a", bytes: Data("old".utf8), fetchedAt: 100, feedTimestamp: 90))
            let newer = sample("a", bytes: Data("newer body".utf8), fetchedAt: 200, feedTimestamp: nil)
            try await repo.save(newer)
            #expect(try await repo.all() == [newer])
        },
        Check(name: "sources are kept apart and listed in order of source") { repo async throws in
            let records = ["https://b.example/rt", "/var/feeds/a.pb", "https://a.example/rt", "Ünïcode 'quoted' \"source\""]
                .enumerated().map { i, source in sample(source, bytes: Data([UInt8(i)]), fetchedAt: Int64(1000 + i), feedTimestamp: Int64(i)) }
            for record in records { try await repo.save(record) }
            #expect(try await repo.all() == records.sorted { $0.source < $1.source })
            for record in records { #expect(try await repo.record(source: record.source) == record) }
        },
        Check(name: "remove forgets one source only, and removing an unknown source is fine") { repo async throws in
            let a = sample("a", fetchedAt: 1, feedTimestamp: nil)
            let b = sample("b", fetchedAt: 2, feedTimestamp: 2)
            try await repo.save(a)
            try await repo.save(b)
            try await repo.remove(source: "a")
            try await repo.remove(source: "never saved")
            #expect(try await repo.all() == [b])
            #expect(try await repo.record(source: "a") == nil)
        },
        Check(name: "an empty body and a large body both read back") { repo async throws in
            var generator = SeededRandom(seed: 7)
            let large = Data((0..<1_500_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            try await repo.save(sample("empty", bytes: Data(), fetchedAt: 5, feedTimestamp: nil))
            try await repo.save(sample("large", bytes: large, fetchedAt: 6, feedTimestamp: nil))
            #expect(try await repo.record(source: "empty")?.payload == Data())
            #expect(try await repo.record(source: "large")?.payload == large)
        },
        Check(name: "times before 1970 and far in the future survive") { repo async throws in
            let record = sample("t", fetchedAt: -86_400 * 365, feedTimestamp: 32_503_680_000)
            try await repo.save(record)
            #expect(try await repo.record(source: "t") == record)
        },
        Check(name: "saves from many tasks at once all land") { repo async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<40 {
                    group.addTask { try await repo.save(sample("source \(i % 10)", bytes: Data([UInt8(i)]), fetchedAt: Int64(i), feedTimestamp: nil)) }
                }
                try await group.waitForAll()
            }
            let all = try await repo.all()
            #expect(all.map(\.source) == (0..<10).map { "source \($0)" })
            // Each source holds one of its own saves, whole: body and time from the same save.
            for record in all { #expect(record.payload == Data([UInt8(record.fetchedAt.epochSeconds)])) }
        },
    ]

    static func sample(_ source: String, bytes: Data = Data("feed".utf8), fetchedAt: Int64, feedTimestamp: Int64?) -> RealtimeFeedRecord {
        RealtimeFeedRecord(source: source, payload: bytes, fetchedAt: Instant(epochSeconds: fetchedAt),
                           feedTimestamp: feedTimestamp.map(Instant.init(epochSeconds:)))
    }
}
