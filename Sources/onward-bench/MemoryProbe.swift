import Foundation
import OnwardCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads this process's memory figures from /proc/self/status (Linux).
enum MemoryProbe {
    /// A field of /proc/self/status such as "VmHWM", in bytes.
    static func status(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.dropFirst(key.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Peak resident set size so far.
    static var peakResident: Int? { status("VmHWM") }
    /// Current resident set size.
    static var resident: Int? { status("VmRSS") }

    /// Returns freed heap memory to the system, so RSS shows what is still in use.
    static func trimHeap() { returnFreedMemory() }
}

/// Runs this executable again with other arguments, to measure something in a fresh process.
enum ChildProcess {
    static var executableURL: URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Runs a subcommand and returns the `key=value` lines it printed.
    static func run(_ arguments: [String]) throws -> [String: String] {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("child `\(arguments.joined(separator: " "))` exited with status \(process.terminationStatus)")
        }
        var values: [String: String] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return values
    }
}

/// A failure that ends the benchmark with one clear line.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
