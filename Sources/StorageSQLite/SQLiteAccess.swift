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

    /// Returns once the transaction is committed (WAL, synchronous=NORMAL by GRDB's default for WAL:
    /// durable against a crash of the process, the case a restart test checks).
    func write<T: Sendable>(_ what: String, _ body: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do { return try await pool.write(body) } catch { throw failure(what, error) }
    }

    private func failure(_ what: String, _ error: any Error) -> StorageError {
        StorageError(.failed, "\(path): cannot \(what) (\(SQLiteStore.reason(error)))")
    }
}
