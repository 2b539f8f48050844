import Foundation
import NIOSSL
import PostgresNIO
import Storage

/// Where the database is, read from a `postgres://` URL (`database_url` / `ONWARD_DATABASE_URL`):
///
///     postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=require&pool_max=20&search_path=onward
///
/// `host=/path` in the query names a Unix socket folder instead (as libpq does). `sslmode` and
/// `sslrootcert` mean what they mean to libpq, so a URL that works with `psql` works here:
/// `disable`; `allow` or `prefer` (the default: TLS when the server offers it, its certificate not
/// checked); `require` (TLS always; the certificate checked against `sslrootcert` when one is
/// named, else not); `verify-ca` (the certificate must chain to `sslrootcert`, else to the system's
/// roots); `verify-full` (that, and name the host). `pool_max` bounds the connections one server
/// opens; `search_path` puts Onward's tables in a schema of their own.
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Hashable { case disable, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full" }

    public var host: String
    public var port: Int
    /// A Unix socket's folder, when the URL named one (then `host` is only for messages).
    public var socketFolder: String?
    public var user: String
    var password: String?
    public var database: String
    public var tls: TLSMode
    /// A PEM file of the certificate authorities the server's certificate must chain to (`sslrootcert`).
    public var rootCertificates: String?
    public var poolMax: Int
    public var searchPath: String?

    /// Reads a URL; the error says what is wrong with it and never repeats its password.
    public init(url text: String) throws(StorageError) {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw StorageError(.cannotOpen, "the database URL must start with postgres:// (for example postgres://onward:PASSWORD@db.example:5432/onward)")
        }
        host = parts.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = parts.port ?? 5432
        user = parts.user.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? "postgres"
        password = parts.password?.removingPercentEncoding
        let path = parts.path.hasPrefix("/") ? String(parts.path.dropFirst()) : parts.path
        database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        tls = .prefer
        poolMax = 20
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let m = TLSMode(rawValue: value == "allow" ? "prefer" : value) else {
                    throw StorageError(.cannotOpen,
                                       "the database URL's sslmode \"\(value)\" is not disable, allow, prefer, require, verify-ca or verify-full")
                }
                tls = m
            case "sslrootcert":
                guard value.hasPrefix("/") else {
                    throw StorageError(.cannotOpen, "the database URL's sslrootcert \"\(value)\" is not a file's full path (it must start with /)")
                }
                rootCertificates = value
            case "pool_max":
                guard let n = Int(value), (1...1_000).contains(n) else {
                    throw StorageError(.cannotOpen, "the database URL's pool_max \"\(value)\" is not a number from 1 to 1000")
                }
                poolMax = n
            case "search_path":
                guard !value.isEmpty, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw StorageError(.cannotOpen, "the database URL's search_path \"\(value)\" is not one schema name (letters, digits, _)")
                }
                searchPath = value
            case "host":
                guard value.hasPrefix("/") else {
                    throw StorageError(.cannotOpen, "the database URL's host parameter \"\(value)\" is not a Unix socket folder (it must start with /)")
                }
                socketFolder = value
            default:
                throw StorageError(.cannotOpen, "the database URL has an unknown parameter \"\(item.name)\" (known: sslmode, sslrootcert, pool_max, search_path, host)")
            }
        }
    }

    /// The database as messages and logs name it: never the password.
    public var description: String {
        let place = socketFolder.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(place)/\(database)" + (searchPath.map { " (schema \($0))" } ?? "")
    }

    /// The same database with another schema: what tests give each check.
    public func inSchema(_ schema: String) -> PostgresLocation {
        var l = self
        l.searchPath = schema
        return l
    }

    /// The pool's configuration (a socket path when the URL named one).
    func clientConfiguration() throws(StorageError) -> PostgresClient.Configuration {
        var c: PostgresClient.Configuration
        if let socketPath {
            c = PostgresClient.Configuration(unixSocketPath: socketPath, username: user, password: password, database: database)
        } else {
            c = PostgresClient.Configuration(host: host, port: port, username: user, password: password, database: database, tls: try clientTLS())
        }
        c.options.maximumConnections = poolMax
        c.options.connectTimeout = .seconds(5)
        // Startup parameters are the server's settings for the session: every pooled connection gets the schema.
        c.options.additionalStartupParameters = startupParameters
        return c
    }

    /// One connection outside the pool, to tell at once whether the database answers (the pool retries quietly).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var c = try socketPath.map { PostgresConnection.Configuration(unixSocketPath: $0, username: user, password: password, database: database) }
            ?? PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database,
                                                tls: try connectionTLS())
        c.options.connectTimeout = .seconds(5)
        c.options.additionalStartupParameters = startupParameters
        return c
    }

    private var socketPath: String? { socketFolder.map { "\($0)/.s.PGSQL.\(port)" } }
    private var startupParameters: [(String, String)] { searchPath.map { [("search_path", $0)] } ?? [] }

    private func clientTLS() throws(StorageError) -> PostgresClient.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(try tlsConfiguration())
        default: .require(try tlsConfiguration())
        }
    }

    private func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        switch tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: try tlsConfiguration()))
        default: .require(try NIOSSLContext(configuration: try tlsConfiguration()))
        }
    }

    /// What the mode checks of the server's certificate, as libpq does.
    public func tlsConfiguration() throws(StorageError) -> TLSConfiguration {
        var c = TLSConfiguration.makeClientConfiguration()
        if let rootCertificates {
            do {
                c.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificates))
            } catch {
                throw StorageError(.cannotOpen, "the database URL's sslrootcert \(rootCertificates) cannot be read as PEM certificates (\(error))")
            }
        }
        switch tls {
        case .disable, .prefer: c.certificateVerification = .none
        case .require: c.certificateVerification = rootCertificates == nil ? .none : .noHostnameVerification
        case .verifyCA: c.certificateVerification = .noHostnameVerification
        case .verifyFull: c.certificateVerification = .fullVerification
        }
        return c
    }
}
