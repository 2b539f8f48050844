import OnwardCore

/// Keeps people: their accounts, their signed-in sessions and their saved routes.
///
/// Drivers throw `StorageError` (`.conflict` when a username or Telegram ID is taken), never
/// their library's errors, and a write returns only once it is durable.
public protocol PeopleRepository: Sendable {
    /// Adds an account; throws `.conflict` when its username (in any letter case) or Telegram ID is taken.
    func createAccount(_ account: Account) async throws
    func account(id: String) async throws -> Account?
    /// The account with this username, in any letter case.
    func account(username: String) async throws -> Account?
    func account(telegramId: Int64) async throws -> Account?
    /// Changes the name others see; false when there is no such account.
    func rename(accountId: String, displayName: String) async throws -> Bool
    /// Deletes the account with its sessions and saved routes; false when there was none.
    func deleteAccount(id: String) async throws -> Bool

    func saveSession(_ session: SessionRecord) async throws
    func session(tokenHash: String) async throws -> SessionRecord?
    /// A person's sessions, oldest first (for their export).
    func sessions(accountId: String) async throws -> [SessionRecord]
    func removeSession(tokenHash: String) async throws
    /// Signs a person out everywhere; returns how many sessions ended.
    @discardableResult func removeSessions(accountId: String) async throws -> Int
    /// Forgets sessions that expired before `now`; returns how many.
    @discardableResult func removeExpiredSessions(before now: Instant) async throws -> Int

    /// Takes one sign-in attempt from the bucket named `key` (it holds `burst` attempts and refills at
    /// `ratePerSecond`) at `now` (seconds since 1970, fractions allowed): nil when one was there (and is
    /// taken), else the seconds until one is. Kept in storage, in one step, so the limit holds for every
    /// server on one database together.
    func takeAttempt(key: String, ratePerSecond: Double, burst: Double, now: Double) async throws -> Double?
    /// Forgets buckets untouched since `before` (seconds since 1970); a bucket that has refilled is no different.
    @discardableResult func removeIdleAttempts(before: Double) async throws -> Int

    /// The person's saved routes (version 0 and none when nothing was ever saved).
    func routes(accountId: String) async throws -> SavedRoutes
    /// Stores `routes` only if what is stored is still at `routes.version - 1` (what the edit read);
    /// returns false, storing nothing, when another write came first or the account is gone.
    func saveRoutes(_ routes: SavedRoutes, accountId: String) async throws -> Bool
}
