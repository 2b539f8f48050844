import Foundation
import OnwardCore
import Storage
import Testing

/// What every `PeopleRepository` must do, run against each driver. Each check gets a new, empty repository.
public enum PeopleRepositoryContract {
    public typealias Check = ContractCheck<any PeopleRepository>

    public static let checks: [Check] = [
        Check(name: "an account reads back by ID, by username in any case, and by Telegram ID") { repo async throws in
            let ana = account("a1", username: "Ana", telegram: nil)
            let tg = account("a2", username: nil, telegram: 42)
            try await repo.createAccount(ana)
            try await repo.createAccount(tg)
            #expect(try await repo.account(id: "a1") == ana)
            #expect(try await repo.account(username: "ANA") == ana)
            #expect(try await repo.account(username: "ana") == ana)
            #expect(try await repo.account(telegramId: 42) == tg)
            #expect(try await repo.account(username: "bob") == nil)
            #expect(try await repo.account(id: "nope") == nil)
            #expect(try await repo.account(telegramId: 43) == nil)
        },
        Check(name: "a username taken in another case, or a Telegram ID taken, is a conflict") { repo async throws in
            try await repo.createAccount(account("a1", username: "Ana", telegram: 7))
            await #expect(throws: StorageError.self) { try await repo.createAccount(account("a2", username: "aNA", telegram: nil)) }
            await #expect(throws: StorageError.self) { try await repo.createAccount(account("a3", username: nil, telegram: 7)) }
            do { try await repo.createAccount(account("a4", username: "ana", telegram: nil)) } catch let e as StorageError {
                #expect(e.code == .conflict)
            }
            #expect(try await repo.account(id: "a2") == nil)
            #expect(try await repo.account(id: "a3") == nil)
        },
        Check(name: "sessions read back by their hash, end one by one, everywhere, or when expired") { repo async throws in
            try await repo.createAccount(account("a1", username: "ana", telegram: nil))
            try await repo.createAccount(account("b1", username: "bob", telegram: nil))
            let s1 = session("h1", "a1", expires: 1_000), s2 = session("h2", "a1", expires: 5_000), s3 = session("h3", "b1", expires: 5_000)
            for s in [s1, s2, s3] { try await repo.saveSession(s) }
            #expect(try await repo.session(tokenHash: "h1") == s1)
            #expect(try await repo.sessions(accountId: "a1") == [s1, s2])
            #expect(try await repo.sessions(accountId: "nobody").isEmpty)
            try await repo.removeSession(tokenHash: "h1")
            #expect(try await repo.session(tokenHash: "h1") == nil)
            try await repo.removeSession(tokenHash: "not-there")
            #expect(try await repo.removeSessions(accountId: "a1") == 1)
            #expect(try await repo.session(tokenHash: "h2") == nil)
            #expect(try await repo.session(tokenHash: "h3") == s3)
            try await repo.saveSession(session("h4", "b1", expires: 999))
            #expect(try await repo.removeExpiredSessions(before: Instant(epochSeconds: 1_000)) == 1)
            #expect(try await repo.session(tokenHash: "h4") == nil)
            #expect(try await repo.session(tokenHash: "h3") == s3)
        },
        Check(name: "saved routes start empty at version 0 and are written only on the version read") { repo async throws in
            try await repo.createAccount(account("a1", username: "ana", telegram: nil))
            let empty = try await repo.routes(accountId: "a1")
            #expect(empty == SavedRoutes())
            let one = try empty.applying(.create(board("r1")))
            #expect(try await repo.saveRoutes(one, accountId: "a1"))
            #expect(try await repo.routes(accountId: "a1") == one)
            // A second device that also read version 0 is refused, and what the first saved is kept.
            let other = try empty.applying(.create(board("r2")))
            #expect(try await repo.saveRoutes(other, accountId: "a1") == false)
            let two = try one.applying(.push(routeId: "r1", SavedRoute(id: "s1", name: "2 to Leeds", kind: .service, tripId: "t:1",
                                                                       serviceDate: "2026-11-24")))
            #expect(try await repo.saveRoutes(two, accountId: "a1"))
            #expect(try await repo.saveRoutes(two, accountId: "a1") == false)
            #expect(try await repo.routes(accountId: "a1") == two)
            #expect(try await repo.routes(accountId: "a1").version == 2)
        },
        Check(name: "routes of an account that does not exist are not saved") { repo async throws in
            #expect(try await repo.saveRoutes(try SavedRoutes().applying(.create(board("r1"))), accountId: "ghost") == false)
            #expect(try await repo.routes(accountId: "ghost") == SavedRoutes())
        },
        Check(name: "deleting an account deletes its sessions and routes, and no one else's") { repo async throws in
            try await repo.createAccount(account("a1", username: "ana", telegram: nil))
            try await repo.createAccount(account("b1", username: "bob", telegram: nil))
            try await repo.saveSession(session("h1", "a1", expires: 5_000))
            try await repo.saveSession(session("h2", "b1", expires: 5_000))
            let routes = try SavedRoutes().applying(.create(board("r1")))
            #expect(try await repo.saveRoutes(routes, accountId: "a1"))
            #expect(try await repo.saveRoutes(routes, accountId: "b1"))
            #expect(try await repo.deleteAccount(id: "a1"))
            #expect(try await repo.deleteAccount(id: "a1") == false)
            #expect(try await repo.account(id: "a1") == nil)
            #expect(try await repo.session(tokenHash: "h1") == nil)
            #expect(try await repo.routes(accountId: "a1") == SavedRoutes())
            #expect(try await repo.session(tokenHash: "h2") != nil)
            #expect(try await repo.routes(accountId: "b1") == routes)
            // The username is free again.
            try await repo.createAccount(account("a2", username: "Ana", telegram: nil))
        },
        Check(name: "sign-in attempts: a bucket of `burst`, refilled at its rate, each key its own; a refusal says how long to wait and takes nothing") { repo async throws in
            for _ in 0..<3 { #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 1_000) == nil) }
            #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 1_000) == 2)
            // Refused again half a second on: the wait shrinks, the refusal took nothing.
            #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 1_000.5) == 1.5)
            #expect(try await repo.takeAttempt(key: "account bob", ratePerSecond: 0.5, burst: 3, now: 1_000.5) == nil)
            // Two seconds after the first refusal one attempt is back, and only one.
            #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 1_002) == nil)
            #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 1_002) == 2)
            // A long pause refills to the burst, no further.
            for _ in 0..<3 { #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 5_000) == nil) }
            #expect(try await repo.takeAttempt(key: "account ana", ratePerSecond: 0.5, burst: 3, now: 5_000) != nil)
            // Idle buckets are forgotten (a forgotten bucket is a full one).
            #expect(try await repo.removeIdleAttempts(before: 2_000) == 1)
            #expect(try await repo.takeAttempt(key: "account bob", ratePerSecond: 0.5, burst: 3, now: 5_000) == nil)
        },
        Check(name: "sign-in attempts taken at once from one bucket: exactly `burst` succeed") { repo async throws in
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<40 { group.addTask { try await repo.takeAttempt(key: "client 10.0.0.1", ratePerSecond: 0.001, burst: 10, now: 100) == nil } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 10)
        },
    ]

    static func account(_ id: String, username: String?, telegram: Int64?) -> Account {
        Account(id: id, username: username, passwordHash: username.map { "$2b$04$hash-of-\($0)" }, telegramId: telegram,
                displayName: "Ana María ☃", createdAt: Instant(epochSeconds: 1_700_000_000))
    }

    static func session(_ hash: String, _ accountId: String, expires: Int64) -> SessionRecord {
        SessionRecord(tokenHash: hash, accountId: accountId, kind: .browser, csrfToken: "csrf-\(hash)", createdAt: Instant(epochSeconds: expires / 10),
                      expiresAt: Instant(epochSeconds: expires))
    }

    static func board(_ id: String) -> SavedRoute {
        SavedRoute(id: id, name: "Blok M → Bundaran HI", kind: .board, stopId: "mrt-jakarta:BLM", to: "mrt-jakarta:BHI")
    }
}
