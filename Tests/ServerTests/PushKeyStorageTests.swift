import API
import App
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import OnwardTesting
import StorageSQLite
import Testing
import WebPush

/// The server's VAPID key lives in its database, not beside it: a restart keeps it, and a key file
/// an earlier version left in the data folder is taken in, so its subscriptions keep getting pushes.
@Suite("the Web Push key in the database", .timeLimit(.minutes(2)))
struct PushKeyStorageTests {
    static func publishedKey(dataDir: String) async throws -> String {
        var config = ServeConfiguration()
        config.port = 0
        config.dataDir = dataDir
        var logger = Logger(label: "onward-push-key-test")
        logger.logLevel = .error
        let built = try await ServerApplication.build(config, logger: logger)
        let key = try await built.application.test(.router) { client in
            let answer = try await PeopleAPITests.send(client, .get, "/api/v1/push/key")
            #expect(answer.status == .ok)
            return try PeopleAPITests.decode(answer, as: PushKeyDTO.self).publicKey
        }
        await built.storage.close()
        return key
    }

    @Test("a new server makes a key, stores it in the database and no file, and a restart publishes the same one")
    func madeOnceAndKept() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try await Self.publishedKey(dataDir: folder.path)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/vapid-private-key.txt"))
        let stored = try #require(VAPIDKey(stored: try await SQLiteStore(directory: folder.path).commutes.pushKey(orStore: "unused")))
        #expect(stored.publicKey == first)
        #expect(try await Self.publishedKey(dataDir: folder.path) == first)
    }

    @Test("a key file from an earlier version is taken into the database; the database's key then wins over any file")
    func legacyFileTakenIn() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let legacy = VAPIDKey()
        let file = folder.path + "/vapid-private-key.txt"
        try (legacy.stored + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await Self.publishedKey(dataDir: folder.path) == legacy.publicKey)
        // The file is no longer what counts: another key put there changes nothing.
        try VAPIDKey().stored.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await Self.publishedKey(dataDir: folder.path) == legacy.publicKey)
        try FileManager.default.removeItem(atPath: file)
        #expect(try await Self.publishedKey(dataDir: folder.path) == legacy.publicKey)
    }

    @Test("a key file that is not a key stops the start with what is wrong and where, and stores nothing")
    func badLegacyFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "not a key".write(toFile: folder.path + "/vapid-private-key.txt", atomically: true, encoding: .utf8)
        await #expect {
            _ = try await Self.publishedKey(dataDir: folder.path)
        } throws: { error in
            "\(error)".contains("vapid-private-key.txt is not a VAPID private key")
        }
        #expect(try await SQLiteStore(directory: folder.path).commutes.pushKey(orStore: "probe") == "probe")
    }
}
