import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What a person saved survives the server being killed: a write is acknowledged only once it is on disk.
@Suite("durability of saved routes")
struct DurabilityTests {
    /// `onward serve` on `dataDir`, answering on a free port; nil when it never became ready.
    static func serve(_ dataDir: URL) async throws -> (Process, port: Int) {
        let port = try ServeCLITests.freePort()
        let process = Process()
        process.executableURL = OnwardExecutable.url
        process.arguments = ["serve", "--port", String(port), "--data-dir", dataDir.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<600 {
            if await ServeCLITests.get("http://127.0.0.1:\(port)/health/ready")?.status == 200 { return (process, port) }
            try await Task.sleep(for: .milliseconds(100))
        }
        kill(process.processIdentifier, SIGKILL)
        throw CancellationError()
    }

    static func send(_ method: String, _ url: String, _ body: String?, token: String? = nil) async throws -> (status: Int, body: [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test("a route acknowledged just before SIGKILL is there after a restart, and so is the session")
    func survivesKill() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        var (server, port) = try await Self.serve(dataDir)
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let account = try await Self.send("POST", "http://127.0.0.1:\(port)/api/v1/accounts", #"{"username": "ana", "password": "correct horse battery"}"#)
        #expect(account.status == 201)
        let token = try #require(account.body["token"] as? String)
        let saved = try await Self.send("POST", "http://127.0.0.1:\(port)/api/v1/me/routes",
                                        #"{"version": 0, "route": {"kind": "board", "stopId": "SBKM", "to": "SBHI"}}"#, token: token)
        #expect(saved.status == 201)
        // Killed the moment the write is acknowledged: no clean shutdown, no chance to flush anything.
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        #expect(server.terminationReason == .uncaughtSignal)

        (server, port) = try await Self.serve(dataDir)
        let routes = try await Self.send("GET", "http://127.0.0.1:\(port)/api/v1/me/routes", nil, token: token)
        #expect(routes.status == 200)
        #expect(routes.body["version"] as? Int == 1)
        let stacks = routes.body["stacks"] as? [[String: Any]]
        #expect((stacks?.first?["route"] as? [String: Any])?["stopId"] as? String == "mrt-jakarta:SBKM")
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
    }
}
