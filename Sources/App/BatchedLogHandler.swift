import Foundation
import Logging
import Synchronization

/// swift-log's `StreamLogHandler` lines (same format), written to standard error in batches:
/// one `write` for many lines rather than one per line. At 25,000 requests a second the access
/// log's line-by-line writes and their flushes were a tenth of the server's time (perf, under
/// wrk). A warning or worse is written at once, with every line before it, in order; other lines
/// wait at most `LogSink`'s interval (0.1 s), or until 64 KB are waiting.
public struct BatchedLogHandler: LogHandler {
    private var inner: StreamLogHandler
    private let sink: LogSink

    public init(label: String, sink: LogSink = .standardError) {
        self.sink = sink
        inner = StreamLogHandler(label: label, stream: LogSink.Stream(sink: sink))
    }

    public func log(event: LogEvent) {
        inner.log(event: event)
        if event.level >= .warning { sink.flush() }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }
}

/// Where batched log lines wait for their write. Lines are appended under one lock and written
/// under another, so a write never holds up a request that logs, and batches go out in order.
public final class LogSink: Sendable {
    /// Standard error, flushed every 0.1 s by a thread of its own (so even a busy server's lines come out).
    public static let standardError = LogSink(fileDescriptor: 2, interval: 0.1)

    static let batchBytes = 64 * 1024
    private let fileDescriptor: Int32
    private let pending = Mutex<[UInt8]>([])
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

    func append(_ line: String) {
        let full = pending.withLock { bytes in
            bytes.append(contentsOf: line.utf8)
            return bytes.count >= Self.batchBytes
        }
        if full { flush() }
    }

    /// Writes every line waiting, in order.
    public func flush() {
        writing.withLock { _ in
            let bytes = pending.withLock { waiting in
                defer { waiting.removeAll(keepingCapacity: true) }
                return waiting
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

    /// The stream `StreamLogHandler` writes each formatted line to.
    struct Stream: TextOutputStream, Sendable {
        let sink: LogSink
        mutating func write(_ string: String) { sink.append(string) }
    }
}
