import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// `onward login` and `onward glance [--follow]` against a real server.
@Suite("onward login and glance")
struct GlanceCLITests {
    @Test("login to a server that does not answer: one line naming it once, exit 1")
    func loginUnreachable() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("onward-login-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        // Port 9 (discard) has nothing listening here: the connection is refused at once.
        let out = try OnwardExecutable.run(["login", "--server", "http://127.0.0.1:9", "--username", "ada"],
                                           environment: ["ONWARD_PASSWORD": "secret", "XDG_CONFIG_HOME": config.path])
        #expect(out.status == 1)
        #expect(out.stderr.hasPrefix("error: "), "\(out.stderr)")
        #expect(out.stderr.components(separatedBy: "127.0.0.1:9").count == 2, "\(out.stderr)")
        #expect(!out.stderr.contains("secret"))
    }

    @Test("login keeps the token readable by its owner only and never prints it; glance shows the current route, and --follow redraws on a change")
    func loginAndGlance() async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-glance-\(UUID().uuidString)")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("onward-config-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir); try? FileManager.default.removeItem(at: config) }
        let (server, port) = try await ServeProcess.start(dataDir)
        defer { kill(server.processIdentifier, SIGKILL) }
        let base = "http://127.0.0.1:\(port)"
        let account = try await ServeProcess.send("POST", base + "/api/v1/accounts", #"{"username": "ana", "password": "correct horse battery"}"#)
        let token = try #require(account.body["token"] as? String)
        let env = ["XDG_CONFIG_HOME": config.path, "ONWARD_PASSWORD": "correct horse battery"]

        let wrong = try OnwardExecutable.run(["login", "--server", base, "--username", "ana"], environment: ["XDG_CONFIG_HOME": config.path, "ONWARD_PASSWORD": "not the password"])
        #expect(wrong.status != 0 && wrong.stderr.contains("sign-in refused"))
        let login = try OnwardExecutable.run(["login", "--server", base, "--username", "ana"], environment: env)
        #expect(login.status == 0, "\(login.stderr)")
        let file = config.appendingPathComponent("onward/credentials.json").path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let kept = try #require(FileManager.default.contents(atPath: file))
        let keptToken = try #require((try JSONSerialization.jsonObject(with: kept) as? [String: Any])?["token"] as? String)
        #expect(!login.stdout.contains(keptToken) && !login.stderr.contains(keptToken))

        let empty = try OnwardExecutable.run(["glance"], environment: env)
        #expect(empty.stdout.contains("No saved routes yet"))
        _ = try await ServeProcess.send("POST", base + "/api/v1/me/routes", #"{"version": 0, "route": {"kind": "board", "stopId": "SLBB", "name": "From home"}}"#,
                                        token: token)
        let glance = try OnwardExecutable.run(["glance"], environment: env)
        #expect(glance.status == 0)
        #expect(glance.stdout.hasPrefix("From home\n"))
        #expect(glance.stdout.contains("Bundaran HI"))

        // --follow: the first screen at once, then another after a change made elsewhere.
        let follow = Process()
        follow.executableURL = OnwardExecutable.url
        follow.arguments = ["glance", "--follow"]
        follow.environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
        let out = Pipe()
        follow.standardOutput = out
        follow.standardError = FileHandle.nullDevice
        try follow.run()
        defer { if follow.isRunning { kill(follow.processIdentifier, SIGKILL) } }
        let screens = ScreenReader(out.fileHandleForReading)
        #expect(try await screens.until { $0.contains("From home") })
        _ = try await ServeProcess.send("PATCH", base + "/api/v1/me/routes/" + (try await Self.currentID(base, token)), #"{"version": 1, "name": "Renamed on the laptop"}"#,
                                        token: token)
        #expect(try await screens.until { $0.contains("Renamed on the laptop") })
    }

    static func currentID(_ base: String, _ token: String) async throws -> String {
        try #require(try await ServeProcess.send("GET", base + "/api/v1/me/routes", nil, token: token).body["currentRouteId"] as? String)
    }
}

/// Collects what a process writes, and waits (at most 20 s) until it holds something.
final class ScreenReader: Sendable {
    private let text = Mutex("")

    init(_ handle: FileHandle) {
        handle.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard let self, !data.isEmpty else { return }
            text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
    }

    func until(_ condition: (String) -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if condition(text.withLock { $0 }) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
