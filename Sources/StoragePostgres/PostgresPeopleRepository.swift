import Foundation
import OnwardCore
import PostgresNIO
import Storage

/// People in the `account`, `session` and `saved_routes` tables. Sessions and routes go with
/// their account (foreign keys with ON DELETE CASCADE).
public struct PostgresPeopleRepository: PeopleRepository {
    let db: PostgresAccess

    public func createAccount(_ account: Account) async throws {
        do {
            try await db.run("create an account", """
                INSERT INTO account (id, username, username_key, password_hash, telegram_id, display_name, created_at)
                VALUES (\(account.id), \(account.username), \(account.username.map(Account.usernameKey)), \(account.passwordHash),
                        \(account.telegramId), \(account.displayName), \(account.createdAt.epochSeconds))
                """)
        } catch {
            // (Not `catch where`: Swift 6.3's SIL crashes on that pattern over a typed throw here.)
            guard error.code == .conflict else { throw error }
            throw StorageError(.conflict, account.username != nil ? "the username is taken" : "the Telegram account already has an account")
        }
    }

    public func account(id: String) async throws -> Account? {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE id = \(id)").first
    }

    public func account(username: String) async throws -> Account? {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE username_key = \(Account.usernameKey(username))").first
    }

    public func account(telegramId: Int64) async throws -> Account? {
        try await accounts("SELECT \(unescaped: Self.accountColumns) FROM account WHERE telegram_id = \(telegramId)").first
    }

    public func rename(accountId: String, displayName: String) async throws -> Bool {
        try await db.rows("rename an account", "UPDATE account SET display_name = \(displayName) WHERE id = \(accountId) RETURNING 1").count > 0
    }

    public func deleteAccount(id: String) async throws -> Bool {
        try await db.rows("delete an account", "DELETE FROM account WHERE id = \(id) RETURNING 1").count > 0
    }

    // Session operations are named without the token or its hash, so neither reaches an error message.
    public func saveSession(_ s: SessionRecord) async throws {
        try await db.run("save a session", """
            INSERT INTO session (token_hash, account_id, kind, csrf_token, created_at, expires_at)
            VALUES (\(s.tokenHash), \(s.accountId), \(s.kind.rawValue), \(s.csrfToken), \(s.createdAt.epochSeconds), \(s.expiresAt.epochSeconds))
            ON CONFLICT (token_hash) DO UPDATE SET account_id = excluded.account_id, kind = excluded.kind, csrf_token = excluded.csrf_token,
                created_at = excluded.created_at, expires_at = excluded.expires_at
            """)
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await sessions("read a session", "SELECT \(unescaped: Self.sessionColumns) FROM session WHERE token_hash = \(tokenHash)").first
    }

    public func sessions(accountId: String) async throws -> [SessionRecord] {
        try await sessions("read a person's sessions", """
            SELECT \(unescaped: Self.sessionColumns) FROM session WHERE account_id = \(accountId) ORDER BY created_at, token_hash
            """)
    }

    public func removeSession(tokenHash: String) async throws {
        try await db.run("end a session", "DELETE FROM session WHERE token_hash = \(tokenHash)")
    }

    public func removeSessions(accountId: String) async throws -> Int {
        try await db.rows("end a person's sessions", "DELETE FROM session WHERE account_id = \(accountId) RETURNING 1").count
    }

    public func removeExpiredSessions(before now: Instant) async throws -> Int {
        try await db.rows("remove expired sessions", "DELETE FROM session WHERE expires_at < \(now.epochSeconds) RETURNING 1").count
    }

    public func takeAttempt(key: String, ratePerSecond: Double, burst: Double, now: Double) async throws -> Double? {
        // One statement, so servers taking from one bucket at once each see the other's attempt; `took` says
        // whether this one found an attempt to take.
        let rows = try await db.rows("take a sign-in attempt", """
            INSERT INTO sign_in_attempt AS a (key, tokens, took, updated) VALUES (\(key), \(burst) - 1, true, \(now))
            ON CONFLICT (key) DO UPDATE SET
                took = least(\(burst), a.tokens + greatest(0, \(now) - a.updated) * \(ratePerSecond)) >= 1,
                tokens = least(\(burst), a.tokens + greatest(0, \(now) - a.updated) * \(ratePerSecond))
                    - CASE WHEN least(\(burst), a.tokens + greatest(0, \(now) - a.updated) * \(ratePerSecond)) >= 1 THEN 1 ELSE 0 END,
                updated = \(now)
            RETURNING tokens, took
            """) { try $0.decode((Double, Bool).self) }
        guard let (tokens, took) = rows.first else { return nil }
        return took ? nil : (1 - tokens) / ratePerSecond
    }

    public func removeIdleAttempts(before: Double) async throws -> Int {
        try await db.rows("remove idle sign-in attempts", "DELETE FROM sign_in_attempt WHERE updated < \(before) RETURNING 1").count
    }

    public func routes(accountId: String) async throws -> SavedRoutes {
        let states = try await db.rows("read saved routes", "SELECT state FROM saved_routes WHERE account_id = \(accountId)") { try $0.decode(Data.self) }
        guard let state = states.first else { return SavedRoutes() }
        return try db.decode(SavedRoutes.self, state)
    }

    public func saveRoutes(_ routes: SavedRoutes, accountId: String) async throws -> Bool {
        let state = try StoredState.encode(routes)
        // Compare-and-swap in one statement: the row is written only if it is still at the version the edit read.
        let written = if routes.version == 1 {
            try await db.rows("save routes", """
                INSERT INTO saved_routes (account_id, version, state)
                SELECT \(accountId), \(routes.version), \(state) WHERE EXISTS (SELECT 1 FROM account WHERE id = \(accountId))
                ON CONFLICT (account_id) DO NOTHING RETURNING 1
                """)
        } else {
            try await db.rows("save routes", """
                UPDATE saved_routes SET version = \(routes.version), state = \(state)
                WHERE account_id = \(accountId) AND version = \(routes.version - 1) RETURNING 1
                """)
        }
        return written.count == 1
    }

    private static let accountColumns = "id, username, password_hash, telegram_id, display_name, created_at"
    private static let sessionColumns = "token_hash, account_id, kind, csrf_token, created_at, expires_at"

    private func accounts(_ query: PostgresQuery) async throws -> [Account] {
        try await db.rows("read an account", query) { row in
            let (id, username, passwordHash, telegramId, displayName, createdAt) = try row.decode((String, String?, String?, Int64?, String, Int64).self)
            return Account(id: id, username: username, passwordHash: passwordHash, telegramId: telegramId, displayName: displayName,
                           createdAt: Instant(epochSeconds: createdAt))
        }
    }

    private func sessions(_ what: String, _ query: PostgresQuery) async throws -> [SessionRecord] {
        try await db.rows(what, query) { row in
            let (tokenHash, accountId, kind, csrf, createdAt, expiresAt) = try row.decode((String, String, String, String, Int64, Int64).self)
            return SessionRecord(tokenHash: tokenHash, accountId: accountId, kind: SessionRecord.Kind(rawValue: kind) ?? .token, csrfToken: csrf,
                                 createdAt: Instant(epochSeconds: createdAt), expiresAt: Instant(epochSeconds: expiresAt))
        }
    }
}
