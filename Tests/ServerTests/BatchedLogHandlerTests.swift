import App
import Foundation
import Logging
import Testing

/// The server's log: StreamLogHandler's lines, written in batches, and at once from a warning up.
@Suite("batched log lines")
struct BatchedLogHandlerTests {
    /// A pipe whose read end does not block: what has been written so far.
    final class Pipe {
        let read: Int32, write: Int32
        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw CocoaError(.fileWriteUnknown) }
            (read, write) = (fds[0], fds[1])
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
            // Room for more than one batch, so a test never blocks on a full pipe.
            _ = fcntl(write, 1031 /* F_SETPIPE_SZ */, 1 << 20)
        }
        deinit { close(read); close(write) }
        func written() -> String {
            var out = [UInt8](), buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = Foundation.read(read, &buffer, buffer.count)
                if n <= 0 { break }
                out += buffer[0..<n]
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    @Test("info lines wait for a flush; a warning is written at once with the lines before it, in order, in StreamLogHandler's format")
    func warningsAtOnce() throws {
        let pipe = try Pipe()
        let sink = LogSink(fileDescriptor: pipe.write, interval: nil)
        var logger = Logger(label: "onward") { BatchedLogHandler(label: $0, sink: sink) }
        logger[metadataKey: "request.id"] = "r1"
        logger.info("first")
        logger.debug("not at this level")
        logger.info("second", metadata: ["extra": "x"])
        #expect(pipe.written() == "")
        logger.warning("trouble")
        let lines = pipe.written().split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix(" info onward: request.id=r1 [ServerTests] first"))
        #expect(lines[1].hasSuffix(" info onward: extra=x request.id=r1 [ServerTests] second"))
        #expect(lines[2].hasSuffix(" warning onward: request.id=r1 [ServerTests] trouble"))
        // The timestamp StreamLogHandler writes: 2026-11-24T18:13:36+0000.
        #expect(lines[0].range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} "#, options: .regularExpression) != nil)
        logger.info("later")
        sink.flush()
        #expect(pipe.written().hasSuffix("[ServerTests] later\n"))
    }

    /// StreamLogHandler's lines, collected.
    final class Collected: @unchecked Sendable {
        var lines: [String] = []
    }
    struct Collecting: TextOutputStream, @unchecked Sendable {
        let into: Collected
        mutating func write(_ string: String) { into.lines.append(string) }
    }

    @Test("the lines are StreamLogHandler's, character for character after the timestamp: metadata of the logger, the call and the error")
    func sameFormatAsStreamLogHandler() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "it broke" } }
        let pipe = try Pipe()
        let sink = LogSink(fileDescriptor: pipe.write, interval: nil)
        let collected = Collected()
        var ours = Logger(label: "onward") { BatchedLogHandler(label: $0, sink: sink, metadataProvider: nil) }
        var theirs = Logger(label: "onward") { StreamLogHandler(label: $0, stream: Collecting(into: collected), metadataProvider: nil) }
        ours[metadataKey: "hb.request.id"] = "abc"
        theirs[metadataKey: "hb.request.id"] = "abc"
        for logger in [ours, theirs] {
            logger.info("plain")
            logger.notice("with more", metadata: ["z": "last", "a": .array(["1", "2"]), "request.id": "abc", "hb.request.id": "the call's wins"])
            logger.error("failed", error: Broken())
        }
        sink.flush()
        func dropStamp(_ line: Substring) -> String { String(line.drop { $0 != " " }) }
        let mine = pipe.written().split(separator: "\n").map(dropStamp)
        let reference = collected.lines.joined().split(separator: "\n").map(dropStamp)
        #expect(mine.count == 3)
        #expect(mine == reference)
    }

    @Test("a full batch is written without waiting for the interval")
    func fullBatch() throws {
        let pipe = try Pipe()
        let sink = LogSink(fileDescriptor: pipe.write, interval: nil)
        let logger = Logger(label: "onward") { BatchedLogHandler(label: $0, sink: sink) }
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<70 { logger.info("\(line)") }
        let written = pipe.written()
        #expect(written.split(separator: "\n").count >= 60)
        #expect(written.hasSuffix("\n"))
    }

    @Test("the interval's thread writes what waits without anyone asking")
    func interval() async throws {
        let pipe = try Pipe()
        let sink = LogSink(fileDescriptor: pipe.write, interval: 0.05)
        let logger = Logger(label: "onward") { BatchedLogHandler(label: $0, sink: sink) }
        logger.info("eventually")
        var seen = ""
        for _ in 0..<100 where !seen.contains("eventually") {
            try await Task.sleep(for: .milliseconds(20))
            seen += pipe.written()
        }
        #expect(seen.contains("[ServerTests] eventually"))
    }
}
