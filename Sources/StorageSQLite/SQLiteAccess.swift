import GRDB
import Storage
import Tracing

/// Reads and writes on the pool for a repository, with database errors turned into a
/// `StorageError` that names the file and the operation, never a GRDB type.
struct SQLiteAccess: Sendable {
    let pool: DatabasePool
    let path: String

    func read<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await traced(what) { try await pool.read(body) } } catch { throw failure(what, error) }
    }

    /// Returns once the transaction is committed and on disk (`synchronous = FULL`, set by `SQLiteStore`:
    /// the WAL is synced at every commit, so an acknowledged write survives a crash of the machine too).
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await traced(what) { try await pool.write(body) } } catch { throw failure(what, error) }
    }

    /// A span for the call, in the trace of whatever asked (the no-op tracer's when spans are not exported).
    private func traced<T>(_ what: String, _ call: () async throws -> T) async throws -> T {
        try await withSpan("sqlite \(what)", ofKind: .client) { span in
            span.attributes["db.system.name"] = "sqlite"
            return try await call()
        }
    }

    private func failure(_ what: String, _ error: any Error) -> StorageError {
        let code = (error as? DatabaseError)?.extendedResultCode
        let unique = code == .SQLITE_CONSTRAINT_UNIQUE || code == .SQLITE_CONSTRAINT_PRIMARYKEY
        return StorageError(unique ? .conflict : .failed, "\(path): cannot \(what) (\(SQLiteStore.reason(error)))")
    }
}
