import Foundation
import Logging
import PostgresNIO
import Storage
import Tracing

/// Queries and transactions on the pool for a repository, with database errors turned into a
/// `StorageError` that names the database (never its password) and the operation, never a PostgresNIO type.
struct PostgresAccess: Sendable {
    let client: PostgresClient
    /// The database as messages name it (`PostgresLocation.description`).
    let place: String
    let logger: Logger

    /// The rows a query answers, all read.
    func rows(_ what: String, _ query: PostgresQuery) async throws(StorageError) -> [PostgresRow] {
        do { return try await traced(what) { try await client.query(query, logger: logger).collect() } } catch { throw failure(what, error) }
    }

    /// The rows a query answers, each read by `read`; a row that does not read is a `StorageError` too.
    func rows<T>(_ what: String, _ query: PostgresQuery, _ read: (PostgresRow) throws -> T) async throws(StorageError) -> [T] {
        let all = try await rows(what, query)
        do { return try all.map(read) } catch { throw failure(what, error) }
    }

    /// Runs a statement; a write is acknowledged only once PostgreSQL has committed it (`synchronous_commit` on, its default).
    func run(_ what: String, _ query: PostgresQuery) async throws(StorageError) {
        _ = try await rows(what, query)
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ what: String, _ body: (Transaction) async throws -> T) async throws(StorageError) -> T {
        do {
            return try await traced(what) {
                try await client.withTransaction(logger: logger) { connection in
                    try await body(Transaction(connection: connection, logger: logger))
                }
            }
        } catch { throw failure(what, error) }
    }

    /// A span for the call, in the trace of whatever asked (the no-op tracer's when spans are not exported).
    /// It names the operation, never the query's text or values.
    private func traced<T>(_ what: String, _ call: () async throws -> T) async throws -> T {
        try await withSpan("postgresql \(what)", ofKind: .client) { span in
            span.attributes["db.system.name"] = "postgresql"
            return try await call()
        }
    }

    /// A connection inside a transaction.
    struct Transaction {
        let connection: PostgresConnection
        let logger: Logger

        func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.query(query, logger: logger).collect()
        }

        func run(_ query: PostgresQuery) async throws { _ = try await rows(query) }
    }

    /// A stored JSON state read back, naming the database when it cannot be read.
    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws(StorageError) -> T {
        try StoredState.decode(type, from: data, place: place)
    }

    func failure(_ what: String, _ error: any Error) -> StorageError {
        Self.failure(what, error, place: place)
    }

    static func failure(_ what: String, _ error: any Error, place: String) -> StorageError {
        var error = error
        // A transaction wraps what went wrong inside it.
        if let t = error as? PostgresTransactionError { error = t.closureError ?? t.commitError ?? t.beginError ?? error }
        if let storage = error as? StorageError { return storage }
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        // 23505: unique_violation.
        return StorageError(state == "23505" ? .conflict : .failed, "\(place): cannot \(what) (\(reason(error)))")
    }

    /// PostgreSQL's own words for a failure. PSQLError's description is deliberately vague, so the
    /// server's message is read from its fields; a query's text and values never are.
    static func reason(_ error: any Error) -> String {
        guard let psql = error as? PSQLError else { return String(describing: error) }
        if let info = psql.serverInfo, let message = info[.message] {
            return [info[.sqlState].map { "SQLSTATE \($0)" }, message].compactMap { $0 }.joined(separator: ": ")
        }
        if let underlying = psql.underlying { return "\(psql.code): \(underlying)" }
        return "\(psql.code)"
    }
}
