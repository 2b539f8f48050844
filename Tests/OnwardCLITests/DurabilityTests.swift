import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What a person saved survives the server being killed: a write is acknowledged only once it is on disk.
@Suite("durability of saved routes")
struct DurabilityTests {
    @Test("a route acknowledged just before SIGKILL is there after a restart, and so is the session")
    func survivesKill() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        var (server, port) = try await ServeProcess.start(dataDir)
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let account = try await ServeProcess.send("POST", "http://127.0.0.1:\(port)/api/v1/accounts", #"{"username": "ana", "password": "correct horse battery"}"#)
        #expect(account.status == 201)
        let token = try #require(account.body["token"] as? String)
        let saved = try await ServeProcess.send("POST", "http://127.0.0.1:\(port)/api/v1/me/routes",
                                        #"{"version": 0, "route": {"kind": "board", "stopId": "SBKM", "to": "SBHI"}}"#, token: token)
        #expect(saved.status == 201)
        // Killed the moment the write is acknowledged: no clean shutdown, no chance to flush anything.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        #expect(server.terminationReason == .uncaughtSignal)

        (server, port) = try await ServeProcess.start(dataDir)
        let routes = try await ServeProcess.send("GET", "http://127.0.0.1:\(port)/api/v1/me/routes", nil, token: token)
        #expect(routes.status == 200)
        #expect(routes.body["version"] as? Int == 1)
        let stacks = routes.body["stacks"] as? [[String: Any]]
        #expect((stacks?.first?["route"] as? [String: Any])?["stopId"] as? String == "mrt-jakarta:SBKM")
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
    }
}
