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
        Check(name: "a saved commute reads back exactly, and a save over its revision replaces it") { repo async throws in
            let first = sample("c1", state: #"{"journey":"é ☃"}"#, revision: 1, updated: 100, expires: 5_000)
            #expect(try await repo.save(first, over: nil))
            #expect(try await repo.record(id: "c1") == first)
            let second = sample("c1", state: "{}", revision: 2, updated: 200, expires: 6_000)
            #expect(try await repo.save(second, over: 1))
            #expect(try await repo.record(id: "c1") == second)
            #expect(try await repo.active(at: Instant(epochSeconds: 0)) == [second])
        },
        Check(name: "a save over a revision that is not the stored one stores nothing and says so") { repo async throws in
            let kept = sample("c", state: "kept", revision: 5, updated: 300, expires: 9_000)
            #expect(try await repo.save(kept, over: nil))
            // Another writer's revision 5 (it read 4), a later one made from a stale read, a second first save.
            #expect(try await !repo.save(sample("c", state: "also 5", revision: 5, updated: 400, expires: 9_000), over: 4))
            #expect(try await !repo.save(sample("c", state: "from 3", revision: 9, updated: 400, expires: 9_000), over: 3))
            #expect(try await !repo.save(sample("c", state: "new", revision: 0, updated: 400, expires: 9_000), over: nil))
            #expect(try await repo.record(id: "c") == kept)
            // A commute that is not stored (ended elsewhere) is not brought back by a save over its last revision.
            #expect(try await !repo.save(sample("gone", revision: 2, updated: 1, expires: 9_000), over: 1))
            #expect(try await repo.record(id: "gone") == nil)
        },
        Check(name: "active lists what has not expired, by ID; expiry forgets only the ended") { repo async throws in
            let ended = sample("b", updated: 1, expires: 999)
            let edge = sample("c", updated: 1, expires: 1_000)
            let later = sample("a", updated: 1, expires: 2_000)
            for r in [ended, edge, later] { #expect(try await repo.save(r, over: nil)) }
            #expect(try await repo.active(at: Instant(epochSeconds: 1_000)) == [later, edge])
            #expect(try await repo.removeExpired(before: Instant(epochSeconds: 1_000)) == 1)
            #expect(try await repo.record(id: "b") == nil)
            #expect(try await repo.active(at: Instant(epochSeconds: 0)) == [later, edge])
        },
        Check(name: "remove forgets one commute, and removing an unknown one is fine") { repo async throws in
            #expect(try await repo.save(sample("x", updated: 1, expires: 10), over: nil))
            #expect(try await repo.save(sample("y", updated: 1, expires: 10), over: nil))
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
            #expect(try await repo.save(sample("c", updated: 1, expires: 2), over: nil))
            #expect(try await repo.removeExpired(before: Instant(epochSeconds: 10)) == 1)
            #expect(try await repo.pushKey(orStore: "later") == kept.first)
        },
        Check(name: "read, change and save from many tasks at once: every change lands, none over another") { repo async throws in
            // Each task appends its number to one of four commutes' states, reading again whenever it loses a race.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<40 {
                    group.addTask {
                        let id = "c\(i % 4)"
                        while true {
                            let read = try await repo.record(id: id)
                            let state = (read.map { String(decoding: $0.state, as: UTF8.self) + "," } ?? "") + "\(i)"
                            let next = sample(id, state: state, revision: (read?.revision ?? 0) + 1, updated: Int64(i), expires: 10_000)
                            if try await repo.save(next, over: read?.revision) { break }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let all = try await repo.active(at: Instant(epochSeconds: 0))
            #expect(all.map(\.id) == ["c0", "c1", "c2", "c3"])
            for (k, r) in all.enumerated() {
                let numbers = String(decoding: r.state, as: UTF8.self).split(separator: ",").compactMap { Int($0) }
                #expect(Set(numbers) == Set(stride(from: k, to: 40, by: 4)))
                #expect(numbers.count == 10 && r.revision == 10)
            }
        },
    ]

    static func sample(_ id: String, state: String = "{}", revision: Int = 1, updated: Int64, expires: Int64) -> CommuteRecord {
        CommuteRecord(id: id, state: Data(state.utf8), revision: revision, updatedAt: Instant(epochSeconds: updated), expiresAt: Instant(epochSeconds: expires))
    }
}
