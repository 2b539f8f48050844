import OnwardCore
import Synchronization

/// People kept in memory for the life of the process: for tests and the contract suite's twin of the drivers.
public final class InMemoryPeopleRepository: PeopleRepository {
    private struct Tables {
        var accounts: [String: Account] = [:]
        var sessions: [String: SessionRecord] = [:]
        var routes: [String: SavedRoutes] = [:]
        var attempts: [String: (tokens: Double, updated: Double)] = [:]
    }

    private let tables = Mutex(Tables())

    public init() {}

    public func createAccount(_ account: Account) async throws {
        try tables.withLock { t throws(StorageError) in
            if let name = account.username, t.accounts.values.contains(where: { $0.username.map(Account.usernameKey) == Account.usernameKey(name) }) {
                throw StorageError(.conflict, "the username is taken")
            }
            if let tg = account.telegramId, t.accounts.values.contains(where: { $0.telegramId == tg }) {
                throw StorageError(.conflict, "the Telegram account already has an account")
            }
            guard t.accounts[account.id] == nil else { throw StorageError(.conflict, "the account ID is taken") }
            t.accounts[account.id] = account
        }
    }

    public func account(id: String) async throws -> Account? { tables.withLock { $0.accounts[id] } }

    public func account(username: String) async throws -> Account? {
        let key = Account.usernameKey(username)
        return tables.withLock { $0.accounts.values.first { $0.username.map(Account.usernameKey) == key } }
    }

    public func account(telegramId: Int64) async throws -> Account? {
        tables.withLock { $0.accounts.values.first { $0.telegramId == telegramId } }
    }

    public func rename(accountId: String, displayName: String) async throws -> Bool {
        tables.withLock { t in
            guard t.accounts[accountId] != nil else { return false }
            t.accounts[accountId]?.displayName = displayName
            return true
        }
    }

    public func deleteAccount(id: String) async throws -> Bool {
        tables.withLock { t in
            guard t.accounts.removeValue(forKey: id) != nil else { return false }
            t.sessions = t.sessions.filter { $0.value.accountId != id }
            t.routes[id] = nil
            return true
        }
    }

    public func saveSession(_ session: SessionRecord) async throws {
        tables.withLock { $0.sessions[session.tokenHash] = session }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? { tables.withLock { $0.sessions[tokenHash] } }

    public func sessions(accountId: String) async throws -> [SessionRecord] {
        tables.withLock { $0.sessions.values.filter { $0.accountId == accountId }.sorted { ($0.createdAt, $0.tokenHash) < ($1.createdAt, $1.tokenHash) } }
    }

    public func removeSession(tokenHash: String) async throws { _ = tables.withLock { $0.sessions.removeValue(forKey: tokenHash) } }

    public func removeSessions(accountId: String) async throws -> Int {
        tables.withLock { t in
            let before = t.sessions.count
            t.sessions = t.sessions.filter { $0.value.accountId != accountId }
            return before - t.sessions.count
        }
    }

    public func removeExpiredSessions(before now: Instant) async throws -> Int {
        tables.withLock { t in
            let before = t.sessions.count
            t.sessions = t.sessions.filter { $0.value.expiresAt >= now }
            return before - t.sessions.count
        }
    }

    public func takeAttempt(key: String, ratePerSecond: Double, burst: Double, now: Double) async throws -> Double? {
        tables.withLock { t in
            let held = t.attempts[key].map { min(burst, $0.tokens + max(0, now - $0.updated) * ratePerSecond) } ?? burst
            let took = held >= 1
            t.attempts[key] = (took ? held - 1 : held, now)
            return took ? nil : (1 - held) / ratePerSecond
        }
    }

    public func removeIdleAttempts(before: Double) async throws -> Int {
        tables.withLock { t in
            let idle = t.attempts.filter { $0.value.updated < before }.map(\.key)
            for key in idle { t.attempts[key] = nil }
            return idle.count
        }
    }

    public func routes(accountId: String) async throws -> SavedRoutes { tables.withLock { $0.routes[accountId] ?? SavedRoutes() } }

    public func saveRoutes(_ routes: SavedRoutes, accountId: String) async throws -> Bool {
        tables.withLock { t in
            guard t.accounts[accountId] != nil, (t.routes[accountId]?.version ?? 0) == routes.version - 1 else { return false }
            t.routes[accountId] = routes
            return true
        }
    }
}
