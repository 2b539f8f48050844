import Foundation
import OnwardCore
import Storage
import Testing

/// What every `CommuteRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum CommuteRepositoryContract {
    public typealias Check = ContractCheck<any CommuteRepository>

    public static let checks: [Check] = [
        Check(name: "an empty repository has no commutes") { repo async throws in
            #expect(try await repo.active(at: Instant(epochSeconds: 0)).isEmpty)
            #expect(try await repo.record(id: "nope") == nil)
        },
        Check(name: "a saved commute reads back exactly, and saving again replaces it") { repo async throws in
            let first = sample("c1", state: #"{"journey":"é ☃"}"#, revision: 1, updated: 100, expires: 5_000)
            try await repo.save(first)
            #expect(try await repo.record(id: "c1") == first)
            let second = sample("c1", state: "{}", revision: 2, updated: 200, expires: 6_000)
            try await repo.save(second)
            #expect(try await repo.record(id: "c1") == second)
            #expect(try await repo.active(at: Instant(epochSeconds: 0)) == [second])
        },
        Check(name: "a save of an earlier revision does not replace a later one") { repo async throws in
            let later = sample("c", state: "later", revision: 5, updated: 300, expires: 9_000)
            try await repo.save(later)
            try await repo.save(sample("c", state: "earlier", revision: 4, updated: 400, expires: 9_000))
            #expect(try await repo.record(id: "c") == later)
        },
        Check(name: "active lists what has not expired, by ID; expiry forgets only the ended") { repo async throws in
            let ended = sample("b", updated: 1, expires: 999)
            let edge = sample("c", updated: 1, expires: 1_000)
            let later = sample("a", updated: 1, expires: 2_000)
            for r in [ended, edge, later] { try await repo.save(r) }
            #expect(try await repo.active(at: Instant(epochSeconds: 1_000)) == [later, edge])
            #expect(try await repo.removeExpired(before: Instant(epochSeconds: 1_000)) == 1)
            #expect(try await repo.record(id: "b") == nil)
            #expect(try await repo.active(at: Instant(epochSeconds: 0)) == [later, edge])
        },
        Check(name: "remove forgets one commute, and removing an unknown one is fine") { repo async throws in
            try await repo.save(sample("x", updated: 1, expires: 10))
            try await repo.save(sample("y", updated: 1, expires: 10))
            try await repo.remove(id: "x")
            try await repo.remove(id: "never")
            #expect(try await repo.active(at: Instant(epochSeconds: 0)).map(\.id) == ["y"])
        },
        Check(name: "the first push key stored is the one every later caller gets, even when many race") { repo async throws in
            let answers = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for i in 0..<12 { group.addTask { ("key-\(i)", try await repo.pushKey(orStore: "key-\(i)")) } }
                return try await group.reduce(into: [(String, String)]()) { $0.append($1) }
            }
            let kept = Set(answers.map(\.1))
            #expect(kept.count == 1)
            // The one kept was some caller's candidate, and asking again with another changes nothing.
            #expect(answers.contains { $0.0 == kept.first })
            #expect(try await repo.pushKey(orStore: "late") == kept.first)
            // Commutes and their expiry leave it alone.
            try await repo.save(sample("c", updated: 1, expires: 2))
            #expect(try await repo.removeExpired(before: Instant(epochSeconds: 10)) == 1)
            #expect(try await repo.pushKey(orStore: "later") == kept.first)
        },
        Check(name: "saves from many tasks at once all land, each whole") { repo async throws in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<40 {
                    group.addTask { try await repo.save(sample("c\(i % 8)", state: "\(i)", revision: i, updated: Int64(i), expires: 10_000)) }
                }
                try await group.waitForAll()
            }
            let all = try await repo.active(at: Instant(epochSeconds: 0))
            #expect(all.count == 8)
            // Each holds its latest revision, whole: state and revision from the same save.
            for (i, r) in all.enumerated() {
                #expect(r.revision == 32 + i)
                #expect(String(decoding: r.state, as: UTF8.self) == "\(r.revision)")
            }
        },
    ]

    static func sample(_ id: String, state: String = "{}", revision: Int = 1, updated: Int64, expires: Int64) -> CommuteRecord {
        CommuteRecord(id: id, state: Data(state.utf8), revision: revision, updatedAt: Instant(epochSeconds: updated), expiresAt: Instant(epochSeconds: expires))
    }
}
