import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `onward serve` as a user runs it: it starts on the bundled network, answers,
/// and shuts down cleanly on SIGTERM.
@Suite("onward serve")
struct ServeCLITests {
    /// A socket bound to a port the system chose on 127.0.0.1, and that port. The caller closes it.
    static func boundSocket() -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// A free port: bind to port 0, read what the system chose, let it go.
    static func freePort() throws -> Int {
        let (fd, port) = boundSocket()
        close(fd)
        return port
    }

    /// GETs a URL; nil while the server is not up yet.
    static func get(_ url: String) async -> (status: Int, body: String)? {
        guard let (data, response) = try? await URLSession.shared.data(from: URL(string: url)!) else { return nil }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test("starts on the bundled network with the simulation, is ready, and stops cleanly on SIGTERM")
    func startAndStop() async throws {
        let port = try Self.freePort()
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let process = Process()
        process.executableURL = OnwardExecutable.url
        process.arguments = ["serve", "--simulate", "--port", String(port), "--data-dir", dataDir.path]
        // Secrets that change nothing here (no token, no bot), to see the start-up log redact them.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["ONWARD_NATIONAL_RAIL_URL": "https://darwin.invalid/ldb?key=rail-url-secret-1",
             "ONWARD_TELEGRAM_API_URL": "https://telegram.invalid/tg-url-secret-2"]) { $1 }
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // Wait until it answers (it loads the timetable first), up to 60 s on a busy machine.
        var ready: (status: Int, body: String)?
        for _ in 0..<600 where ready == nil {
            ready = await Self.get("http://127.0.0.1:\(port)/health/ready")
            if ready == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let answer = try #require(ready, "the server never answered")
        #expect(answer.status == 200)
        #expect(answer.body.contains(#""timetable":"loaded""#))
        #expect(answer.body.contains(#""simulated":true"#))
        let board = await Self.get("http://127.0.0.1:\(port)/api/v1/stops/SLBB/departures?limit=3")
        #expect(board?.status == 200)
        #expect(FileManager.default.fileExists(atPath: dataDir.path))

        kill(process.processIdentifier, SIGTERM)
        let stopped = Date().addingTimeInterval(15)
        while process.isRunning && Date() < stopped { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning, "still running 15 s after SIGTERM")
        #expect(process.terminationStatus == 0)
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output.contains("serving MRT Jakarta"))
        // The configuration is logged once, with where each setting came from, and no secret in it.
        #expect(output.contains("configuration port=[string: \(port)] (--port)"), "\(output)")
        #expect(output.contains("national_rail_url=[string: <REDACTED>] (ONWARD_NATIONAL_RAIL_URL)"), "\(output)")
        #expect(!output.contains("rail-url-secret-1") && !output.contains("tg-url-secret-2"), "\(output)")
    }

    @Test("a bad setting is refused before starting, naming it")
    func badSetting() throws {
        let out = try OnwardExecutable.run(["serve", "--port", "99999"])
        #expect(out.status != 0)
        #expect(out.stderr.contains("--port"))
    }

    @Test("a config file with broken JSON is refused with the line and column where it breaks")
    func brokenConfigSaysWhere() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("onward-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        // A comma missing after "host": the parser stops at the next key, line 3, column 16 (é is one column, two bytes).
        try Data("{\n  \"port\": 8080,\n  \"host\": \"é\"  \"data_dir\": \"x\"\n}\n".utf8).write(to: file)
        let out = try OnwardExecutable.run(["serve", "--config", file.path])
        #expect(out.status == 1)
        #expect(out.stderr.contains("\(file.path): not valid JSON at line 3, column 16"), "\(out.stderr)")
    }

    @Test("an onward.sqlite in the data folder that is not a database stops the start with what to do, and is kept")
    func unreadableDatabase() throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let file = dataDir.appendingPathComponent("onward.sqlite")
        let notADatabase = Data("a spreadsheet saved under the wrong name\n".utf8)
        try notADatabase.write(to: file)
        let out = try OnwardExecutable.run(["serve", "--port", String(try Self.freePort()), "--data-dir", dataDir.path])
        #expect(out.status != 0)
        #expect(out.stderr.contains(file.path) && out.stderr.contains("Move it aside"), "\(out.stderr)")
        #expect(try Data(contentsOf: file) == notADatabase)
    }

    @Test("a port already in use is refused in words, naming the port and --port, with no \"serving\" line before it")
    func portInUse() throws {
        // Hold a port: bind and listen on it for the length of the test.
        let (fd, port) = Self.boundSocket()
        defer { close(fd) }
        #expect(listen(fd, 1) == 0)
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("onward-serve-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let out = try OnwardExecutable.run(["serve", "--port", String(port), "--data-dir", dataDir.path])
        #expect(out.status != 0)
        #expect(out.stderr.contains("port \(port) on 127.0.0.1 is already in use"), "\(out.stderr)")
        #expect(out.stderr.contains("--port"))
        #expect(!out.stderr.contains("errno"))
        // "serving" is logged once the port is bound: here it never was.
        #expect(!out.stderr.contains("serving"), "\(out.stderr)")
    }
}
