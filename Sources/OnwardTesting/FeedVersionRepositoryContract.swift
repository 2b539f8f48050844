import Foundation
import OnwardCore
import Storage
import Testing

/// What every `FeedVersionRepository` must do, run against memory, SQLite and PostgreSQL.
public enum FeedVersionRepositoryContract {
    public typealias Check = ContractCheck<any FeedVersionRepository>

    public static let checks: [Check] = [
        Check(name: "an empty repository has no versions") { repo async throws in
            #expect(try await repo.heads().isEmpty)
            #expect(try await repo.record(feed: "halifax") == nil)
        },
        Check(name: "a saved version reads back exactly: bytes, hash, time and validators; its head without the bytes") { repo async throws in
            var generator = SeededRandom(seed: 11)
            let bytes = Data((0..<2_000_000).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            let record = FeedVersionRecord(feed: "halifax", hash: String(repeating: "ab", count: 32), fetchedAt: Instant(epochSeconds: 1_762_463_054),
                                           etag: "\"v1\"", lastModified: "Thu, 06 Nov 2025 21:04:14 GMT", payload: bytes)
            try await repo.save(record)
            #expect(try await repo.record(feed: "halifax") == record)
            #expect(try await repo.heads() == [record.head])
        },
        Check(name: "a new version replaces the feed's old one; validators may be missing") { repo async throws in
            try await repo.save(FeedVersionRecord(feed: "a", hash: "1", fetchedAt: Instant(epochSeconds: 10), etag: "\"1\"", payload: Data("one".utf8)))
            let newer = FeedVersionRecord(feed: "a", hash: "2", fetchedAt: Instant(epochSeconds: 20), payload: Data("two".utf8))
            try await repo.save(newer)
            #expect(try await repo.record(feed: "a") == newer)
            #expect(try await repo.heads() == [newer.head])
        },
        Check(name: "feeds are kept apart and their heads listed by name") { repo async throws in
            let records = ["caltrain", "bart", "Ünïcode 'feed'"].enumerated().map { i, feed in
                FeedVersionRecord(feed: feed, hash: "h\(i)", fetchedAt: Instant(epochSeconds: Int64(i)), payload: Data([UInt8(i)]))
            }
            for r in records { try await repo.save(r) }
            #expect(try await repo.heads() == records.sorted { $0.feed < $1.feed }.map(\.head))
            for r in records { #expect(try await repo.record(feed: r.feed) == r) }
        },
    ]
}
