import GRDB
import Storage

/// Reads and writes on the pool for a repository, with database errors turned into a
/// `StorageError` that names the file and the operation, never a GRDB type.
struct SQLiteAccess: Sendable {
    let pool: DatabasePool
    let path: String

    func read<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await pool.read(body) } catch { throw failure(what, error) }
    }

    /// Returns once the transaction is committed and on disk (`synchronous = FULL`, set by `SQLiteStore`:
    /// the WAL is synced at every commit, so an acknowledged write survives a crash of the machine too).
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await pool.write(body) } catch { throw failure(what, error) }
    }

    private func failure(_ what: String, _ error: any Error) -> StorageError {
        let code = (error as? DatabaseError)?.extendedResultCode
        let unique = code == .SQLITE_CONSTRAINT_UNIQUE || code == .SQLITE_CONSTRAINT_PRIMARYKEY
        return StorageError(unique ? .conflict : .failed, "\(path): cannot \(what) (\(SQLiteStore.reason(error)))")
    }
}
