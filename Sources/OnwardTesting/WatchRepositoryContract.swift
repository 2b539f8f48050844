import Foundation
import Storage
import Testing

/// What every `WatchRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum WatchRepositoryContract {
    public typealias Check = ContractCheck<any WatchRepository>

    public static let checks: [Check] = [
        Check(name: "a saved watch reads back exactly for its owner only, and a save replaces it") { repo async throws in
            #expect(try await repo.all().isEmpty)
            let first = WatchRecord(id: "w1", owner: "ana", state: Data(#"{"name":"to work ☃"}"#.utf8))
            #expect(try await repo.save(first))
            #expect(try await repo.watches(owner: "ana") == [first])
            #expect(try await repo.watches(owner: "ben").isEmpty)
            let second = WatchRecord(id: "w1", owner: "ana", state: Data("{}".utf8))
            #expect(try await repo.save(second))
            #expect(try await repo.all() == [second])
        },
        Check(name: "another person can neither overwrite nor remove a watch, and learns nothing from trying") { repo async throws in
            let ana = WatchRecord(id: "w", owner: "ana", state: Data("kept".utf8))
            #expect(try await repo.save(ana))
            #expect(try await !repo.save(WatchRecord(id: "w", owner: "ben", state: Data("taken".utf8))))
            #expect(try await !repo.remove(id: "w", owner: "ben"))
            #expect(try await repo.watches(owner: "ana") == [ana])
            #expect(try await repo.watches(owner: "ben").isEmpty)
        },
        Check(name: "remove forgets one watch; all lists everyone's by ID") { repo async throws in
            for (id, owner) in [("c", "ana"), ("a", "ben"), ("b", "ana")] {
                #expect(try await repo.save(WatchRecord(id: id, owner: owner, state: Data(id.utf8))))
            }
            #expect(try await repo.all().map(\.id) == ["a", "b", "c"])
            #expect(try await repo.watches(owner: "ana").map(\.id) == ["b", "c"])
            #expect(try await repo.remove(id: "b", owner: "ana"))
            #expect(try await !repo.remove(id: "b", owner: "ana"))
            #expect(try await repo.all().map(\.id) == ["a", "c"])
        },
    ]
}
