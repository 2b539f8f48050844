import Foundation
import OnwardTesting
import PostgresNIO
import Storage
import StoragePostgres
import Testing

/// Each `sslmode` against the test cluster, which serves TLS with a certificate for localhost and 127.0.0.1
/// from a certificate authority made for it (`Scripts/postgres.sh`): what the connection is, and what
/// each mode refuses.
@Suite("PostgreSQL over TLS", .enabled(if: TestPostgres.tlsEnabled, "needs the test cluster with TLS (Scripts/test.sh starts one)"))
struct PostgresTLSTests {
    static func location(_ mode: PostgresLocation.TLSMode, rootCertificates: String? = nil) throws -> PostgresLocation {
        guard TestPostgres.caFile != nil else { throw StorageError(.cannotOpen, "ONWARD_TEST_POSTGRES_CA is not set") }
        var l = try TestPostgres.freshLocation()
        l.tls = mode
        l.rootCertificates = rootCertificates
        return l
    }

    /// Whether the store's own connection is encrypted, as the server sees it.
    static func encrypted(_ store: PostgresStore) async throws -> Bool? {
        var answer: Bool?
        for try await ssl in try await store.client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").decode(Bool.self) {
            answer = ssl
        }
        return answer
    }

    @Test("each mode connects as it says: disable in the clear, the others encrypted; the store works over it",
          arguments: [PostgresLocation.TLSMode.disable, .prefer, .require, .verifyCA, .verifyFull])
    func modes(_ mode: PostgresLocation.TLSMode) async throws {
        // verify-ca and verify-full need the cluster's authority; require checks against it when it is named.
        let roots = mode == .verifyCA || mode == .verifyFull ? TestPostgres.caFile : nil
        let location = try Self.location(mode, rootCertificates: roots)
        let store = try await PostgresStore.open(location, logger: TestPostgres.logger)
        do {
            #expect(try await Self.encrypted(store) == (mode != .disable))
            // Migrated and writable over this connection.
            #expect(try await store.commutes.pushKey(orStore: "k") == "k")
        } catch {
            await TestPostgres.drop(location, store)
            throw error
        }
        await TestPostgres.drop(location, store)
    }

    @Test("verify-full refuses a certificate the system does not trust, saying which database, never its password")
    func untrusted() async throws {
        var location = try Self.location(.verifyFull)
        location = try PostgresLocation(url: "postgres://onward:s3cret-pw@\(location.host):\(location.port)/\(location.database)?sslmode=verify-full")
        do {
            let store = try await PostgresStore.open(location, logger: TestPostgres.logger)
            await store.close()
            Issue.record("a certificate from an unknown authority was accepted")
        } catch {
            #expect(error.code == .cannotOpen)
            #expect(error.message.contains("\(location.host):\(location.port)") && !error.message.contains("s3cret-pw"), "\(error.message)")
            #expect(error.message.contains("not trusted") && error.message.contains("sslrootcert"), "\(error.message)")
        }
    }

    @Test("an sslrootcert that is not there is a clear error before any connection")
    func missingRoots() throws {
        let location = try Self.location(.verifyFull, rootCertificates: "/nonexistent/ca.pem")
        #expect(throws: StorageError.self) { _ = try location.tlsConfiguration() }
        do { _ = try location.tlsConfiguration() } catch {
            #expect(error.message.contains("sslrootcert /nonexistent/ca.pem"))
        }
        #expect(throws: StorageError.self) { _ = try PostgresLocation(url: "postgres://a@h/d?sslrootcert=relative.pem") }
    }
}
