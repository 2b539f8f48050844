import Foundation
import OnwardCore
import Storage
import Testing

/// What every `UpstreamAnswerRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum UpstreamAnswerRepositoryContract {
    public typealias Check = ContractCheck<any UpstreamAnswerRepository>

    static func sample(_ key: String, body: String = "<board/>", at: Int64, source: String = "national-rail") -> UpstreamAnswerRecord {
        UpstreamAnswerRecord(source: source, key: key, status: 200, headers: ["content-type": "text/xml; charset=utf-8", "etag": "\"é\""],
                             body: Data(body.utf8), fetchedAt: Instant(epochSeconds: at))
    }

    public static let checks: [Check] = [
        Check(name: "an answer reads back exactly, by source and key; a later one replaces it, an earlier one does not") { repo async throws in
            #expect(try await repo.answer(source: "national-rail", key: "board:KGX:dep") == nil)
            let first = sample("board:KGX:dep", body: "<first ☃/>", at: 100)
            try await repo.save(first)
            #expect(try await repo.answer(source: "national-rail", key: "board:KGX:dep") == first)
            #expect(try await repo.answer(source: "cta", key: "board:KGX:dep") == nil)
            let later = sample("board:KGX:dep", body: "<later/>", at: 130)
            try await repo.save(later)
            try await repo.save(sample("board:KGX:dep", body: "<late arrival of an old fetch/>", at: 120))
            #expect(try await repo.answer(source: "national-rail", key: "board:KGX:dep") == later)
        },
        Check(name: "one claim at a time per key until it expires or its answer is saved") { repo async throws in
            let now = Instant(epochSeconds: 1_000)
            #expect(try await repo.claim(source: "cta", key: "p:1", until: now.adding(seconds: 15), now: now))
            #expect(try await !repo.claim(source: "cta", key: "p:1", until: now.adding(seconds: 16), now: now.adding(seconds: 1)))
            #expect(try await repo.claim(source: "cta", key: "p:2", until: now.adding(seconds: 15), now: now))
            #expect(try await repo.claim(source: "national-rail", key: "p:1", until: now.adding(seconds: 15), now: now))
            // Its holder died: after the claim's time another may fetch.
            #expect(try await repo.claim(source: "cta", key: "p:1", until: now.adding(seconds: 31), now: now.adding(seconds: 16)))
            // A saved answer ends the claim on its key; so does giving it up.
            try await repo.save(sample("p:1", at: 1_017, source: "cta"))
            #expect(try await repo.claim(source: "cta", key: "p:1", until: now.adding(seconds: 33), now: now.adding(seconds: 18)))
            try await repo.release(source: "cta", key: "p:1")
            #expect(try await repo.claim(source: "cta", key: "p:1", until: now.adding(seconds: 34), now: now.adding(seconds: 19)))
        },
        Check(name: "of many racing for one key, one claim wins") { repo async throws in
            let now = Instant(epochSeconds: 5_000)
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<12 { group.addTask { try await repo.claim(source: "national-rail", key: "board:YRK:dep", until: now.adding(seconds: 15), now: now) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        },
        Check(name: "old answers are forgotten, newer ones kept") { repo async throws in
            try await repo.save(sample("a", at: 10))
            try await repo.save(sample("b", at: 20))
            #expect(try await repo.removeOlder(than: Instant(epochSeconds: 15)) == 1)
            #expect(try await repo.answer(source: "national-rail", key: "a") == nil)
            #expect(try await repo.answer(source: "national-rail", key: "b") != nil)
        },
    ]
}
