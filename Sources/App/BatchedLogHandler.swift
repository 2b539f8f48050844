import Foundation
import Logging
import Synchronization

/// swift-log's `StreamLogHandler` lines, in its format, written to standard error in batches:
/// one `write` for many lines rather than one per line. At 25,000 requests a second the access
/// log's line-by-line writes were a tenth of the server's time, and StreamLogHandler's work per
/// line (the clock formatted each time, the metadata rendered again whenever a request's logger
/// got its ID) another twentieth (perf, under wrk). Here the timestamp is formatted once a second
/// and metadata when a line is written. A warning or worse is written at once, with every line
/// before it, in order; other lines wait at most `LogSink`'s interval (0.1 s), or until 64 KB are waiting.
public struct BatchedLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let sink: LogSink

    public init(label: String, sink: LogSink = .standardError, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        // The logger's, the provider's and the call's metadata, a later value winning, sorted by key. In a small array
        // rather than merged dictionaries: a request's line has two or three keys, and the merging and sorting of
        // dictionaries were a quarter of the access log's time under wrk (perf).
        var pairs: [(key: String, value: Logger.MetadataValue)] = []
        pairs.reserveCapacity(metadata.count + (event.metadata?.count ?? 0) + 2)
        for (key, value) in metadata { pairs.append((key, value)) }
        func add(_ key: String, _ value: Logger.MetadataValue) {
            if let i = pairs.firstIndex(where: { $0.key == key }) { pairs[i].value = value } else { pairs.append((key, value)) }
        }
        if let provided = metadataProvider?.get() { for (key, value) in provided { add(key, value) } }
        if let explicit = event.metadata { for (key, value) in explicit { add(key, value) } }
        if let error = event.error {
            add("error.message", "\(error)")
            add("error.type", "\(String(reflecting: type(of: error)))")
        }
        if pairs.count > 1 { pairs.sort { $0.key < $1.key } }
        // As StreamLogHandler: "<time> <level> <label>: k=v k=v [<source>] <message>".
        var line = " "
        line.reserveCapacity(160)
        line += event.level.rawValue
        if !label.isEmpty { line += " " }
        line += label
        line += ":"
        for (key, value) in pairs {
            line += " "
            line += key
            line += "="
            if case .string(let text) = value { line += text } else { line += value.description }
        }
        line += " ["
        line += event.source
        line += "] "
        line += event.message.description
        line += "\n"
        sink.append(line)
        if event.level >= .warning { sink.flush() }
    }
}

/// Where batched log lines wait for their write. Lines are appended under one lock and written
/// under another, so a write never holds up a request that logs, and batches go out in order.
public final class LogSink: Sendable {
    /// Standard error, flushed every 0.1 s by a thread of its own (so even a busy server's lines come out).
    public static let standardError = LogSink(fileDescriptor: 2, interval: 0.1)

    static let batchBytes = 64 * 1024
    private let fileDescriptor: Int32
    private struct Waiting {
        var bytes: [UInt8] = []
        /// The second `stamp` shows.
        var stampSecond: time_t = -1
        var stamp = ""
    }
    private let pending = Mutex(Waiting())
    private let writing = Mutex<Void>(())

    /// `interval`: how often a thread writes what is waiting; nil for none (the owner calls `flush`).
    public init(fileDescriptor: Int32, interval: TimeInterval?) {
        self.fileDescriptor = fileDescriptor
        if let interval {
            // Weak: a sink nobody holds (a test's) ends its thread.
            Thread.detachNewThread { [weak self] in
                while true {
                    Thread.sleep(forTimeInterval: interval)
                    guard let self else { return }
                    self.flush()
                }
            }
        }
    }

    /// Appends one line, after its timestamp (formatted once a second, in local time as StreamLogHandler does).
    func append(_ line: String) {
        let now = time(nil)
        let full = pending.withLock { waiting in
            if now != waiting.stampSecond {
                waiting.stampSecond = now
                waiting.stamp = Self.timestamp(now)
            }
            waiting.bytes.append(contentsOf: waiting.stamp.utf8)
            waiting.bytes.append(contentsOf: line.utf8)
            return waiting.bytes.count >= Self.batchBytes
        }
        if full { flush() }
    }

    private static func timestamp(_ seconds: time_t) -> String {
        var t = seconds, local = tm()
        localtime_r(&t, &local)
        var buffer = [Int8](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes every line waiting, in order.
    public func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { waiting in
                defer { waiting.bytes.removeAll(keepingCapacity: true) }
                return waiting.bytes
            }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }  // nowhere to report it
                }
            }
        }
    }
}
