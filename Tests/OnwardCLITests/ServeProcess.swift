import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `onward serve` run as a user runs it, for the tests that need a real server process, and JSON requests to it.
enum ServeProcess {
    /// `onward serve` on `dataDir`, answering on a free port; nil when it never became ready.
    static func start(_ dataDir: URL) async throws -> (Process, port: Int) {
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
}
