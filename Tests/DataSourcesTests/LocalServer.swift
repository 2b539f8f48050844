import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A python3 process serving on 127.0.0.1, for round trips through the real
/// URLSession without leaving the machine. The script binds port 0 and prints the
/// port only once it is listening, so the test knows it is ready without guessing
/// a delay or racing another process for a free port.
final class LocalServer {
    let port: Int
    private let process: Process

    /// The python3 on PATH, or nil (the tests that need it are then skipped).
    static let python3: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct StartFailure: Error, CustomStringConvertible { var description: String }

    init(script: String, arguments: [String] = []) throws {
        guard let python = Self.python3 else { throw StartFailure(description: "python3 is missing") }
        process = Process()
        process.executableURL = python
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Blocks until the first line; ends at EOF if python exits first.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw StartFailure(description: "python3 server did not report a port (got \(String(decoding: line, as: UTF8.self)))")
        }
        self.port = port
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// SIGKILL, not `terminate()`: on Linux the child inherits the test thread's
    /// signal mask, in which the concurrency runtime has SIGTERM blocked, so a
    /// SIGTERM would never arrive and `waitUntilExit()` would wait for ever.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit { stop() }

    /// `python3 -m http.server` on 127.0.0.1 serving `folder`; it answers
    /// `If-Modified-Since` with 304 when the file is unchanged.
    static func files(in folder: URL) throws -> LocalServer {
        try LocalServer(script: """
            import functools, http.server, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            handler.log_message = lambda *args: None
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, arguments: [folder.path])
    }

    /// Accepts connections (the kernel does, from the listen backlog) and never answers.
    static func silent() throws -> LocalServer {
        try LocalServer(script: """
            import socket, time
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(16)
            print(s.getsockname()[1], flush=True)
            time.sleep(600)
            """)
    }
}
