import Foundation
import GRDB
import OnwardCore
import Storage

/// People in the `account`, `session` and `saved_routes` tables. Sessions and routes go with
/// their account (foreign keys with ON DELETE CASCADE; GRDB turns foreign keys on).
public struct SQLitePeopleRepository: PeopleRepository {
    let db: SQLiteAccess

    public func createAccount(_ account: Account) async throws {
        do {
            try await db.write("create an account") { db in
                try db.execute(sql: """
                    INSERT INTO account (id, username, username_key, password_hash, telegram_id, display_name, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [account.id, account.username, account.username.map(Account.usernameKey), account.passwordHash,
                                     account.telegramId, account.displayName, account.createdAt.epochSeconds])
            }
        } catch where error.code == .conflict {
            throw StorageError(.conflict, account.username != nil ? "the username is taken" : "the Telegram account already has an account")
        }
    }

    public func account(id: String) async throws -> Account? {
        try await fetchAccount("read an account", "id = ?", id)
    }

    public func account(username: String) async throws -> Account? {
        try await fetchAccount("read an account", "username_key = ?", Account.usernameKey(username))
    }

    public func account(telegramId: Int64) async throws -> Account? {
        try await fetchAccount("read an account", "telegram_id = ?", telegramId)
    }

    public func rename(accountId: String, displayName: String) async throws -> Bool {
        try await db.write("rename an account") { db in
            try db.execute(sql: "UPDATE account SET display_name = ? WHERE id = ?", arguments: [displayName, accountId])
            return db.changesCount > 0
        }
    }

    public func deleteAccount(id: String) async throws -> Bool {
        try await db.write("delete an account") { db in
            try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    // Session operations are named without the token or its hash, so neither reaches an error message.
    public func saveSession(_ s: SessionRecord) async throws {
        try await db.write("save a session") { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO session (token_hash, account_id, kind, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [s.tokenHash, s.accountId, s.kind.rawValue, s.csrfToken, s.createdAt.epochSeconds, s.expiresAt.epochSeconds])
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await db.read("read a session") { db in
            try Row.fetchOne(db, sql: "SELECT * FROM session WHERE token_hash = ?", arguments: [tokenHash]).map(Self.session)
        }
    }

    public func sessions(accountId: String) async throws -> [SessionRecord] {
        try await db.read("read a person's sessions") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM session WHERE account_id = ? ORDER BY created_at, token_hash", arguments: [accountId]).map(Self.session)
        }
    }

    private static func session(_ row: Row) -> SessionRecord {
        SessionRecord(tokenHash: row["token_hash"], accountId: row["account_id"], kind: SessionRecord.Kind(rawValue: row["kind"]) ?? .token,
                      csrfToken: row["csrf_token"], createdAt: Instant(epochSeconds: row["created_at"]), expiresAt: Instant(epochSeconds: row["expires_at"]))
    }

    public func removeSession(tokenHash: String) async throws {
        try await db.write("end a session") { db in try db.execute(sql: "DELETE FROM session WHERE token_hash = ?", arguments: [tokenHash]) }
    }

    public func removeSessions(accountId: String) async throws -> Int {
        try await db.write("end a person's sessions") { db in
            try db.execute(sql: "DELETE FROM session WHERE account_id = ?", arguments: [accountId])
            return db.changesCount
        }
    }

    public func removeExpiredSessions(before now: Instant) async throws -> Int {
        try await db.write("remove expired sessions") { db in
            try db.execute(sql: "DELETE FROM session WHERE expires_at < ?", arguments: [now.epochSeconds])
            return db.changesCount
        }
    }

    public func takeAttempt(key: String, ratePerSecond: Double, burst: Double, now: Double) async throws -> Double? {
        try await db.write("take a sign-in attempt") { db in
            // One statement: the bucket refilled to now, one attempt taken when there is one; `took` says which.
            let row = try Row.fetchOne(db, sql: """
                INSERT INTO sign_in_attempt (key, tokens, took, updated) VALUES (?1, ?2 - 1, 1, ?4)
                ON CONFLICT (key) DO UPDATE SET
                    took = min(?2, tokens + max(0, ?4 - updated) * ?3) >= 1,
                    tokens = min(?2, tokens + max(0, ?4 - updated) * ?3) - (min(?2, tokens + max(0, ?4 - updated) * ?3) >= 1),
                    updated = ?4
                RETURNING tokens, took
                """, arguments: [key, burst, ratePerSecond, now])
            guard let row, let tokens = row["tokens"] as Double?, let took = row["took"] as Bool? else { return nil }
            return took ? nil : (1 - tokens) / ratePerSecond
        }
    }

    public func removeIdleAttempts(before: Double) async throws -> Int {
        try await db.write("remove idle sign-in attempts") { db in
            try db.execute(sql: "DELETE FROM sign_in_attempt WHERE updated < ?", arguments: [before])
            return db.changesCount
        }
    }

    public func routes(accountId: String) async throws -> SavedRoutes {
        let state = try await db.read("read saved routes") { db in
            try Data.fetchOne(db, sql: "SELECT state FROM saved_routes WHERE account_id = ?", arguments: [accountId])
        }
        guard let state else { return SavedRoutes() }
        return try StoredState.decode(SavedRoutes.self, from: state, place: db.path)
    }

    public func saveRoutes(_ routes: SavedRoutes, accountId: String) async throws -> Bool {
        let state = try StoredState.encode(routes)
        return try await db.write("save routes") { db in
            if routes.version == 1 {
                try db.execute(sql: """
                    INSERT INTO saved_routes (account_id, version, state) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM account WHERE id = ?)
                    ON CONFLICT (account_id) DO NOTHING
                    """, arguments: [accountId, routes.version, state, accountId])
            } else {
                try db.execute(sql: "UPDATE saved_routes SET version = ?, state = ? WHERE account_id = ? AND version = ?",
                               arguments: [routes.version, state, accountId, routes.version - 1])
            }
            return db.changesCount == 1
        }
    }

    private func fetchAccount(_ what: String, _ condition: String, _ value: some DatabaseValueConvertible & Sendable) async throws -> Account? {
        try await db.read(what) { db in
            try Row.fetchOne(db, sql: "SELECT * FROM account WHERE \(condition)", arguments: [value]).map { row in
                let telegram: Int64? = row["telegram_id"]
                return Account(id: row["id"], username: row["username"], passwordHash: row["password_hash"], telegramId: telegram,
                               displayName: row["display_name"], createdAt: Instant(epochSeconds: row["created_at"]))
            }
        }
    }
}
