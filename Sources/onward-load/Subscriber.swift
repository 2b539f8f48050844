import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Synchronization

/// Monotonic nanoseconds since the tool started.
enum Clock {
    private static let origin = ContinuousClock.now

    static func nanos() -> Int64 {
        let d = origin.duration(to: .now).components
        return d.seconds * 1_000_000_000 + d.attoseconds / 1_000_000_000
    }
}

/// One message as a subscriber received it.
struct Received: Sendable {
    /// When the whole message had been read (`Clock.nanos`).
    var at: Int64
    /// The message's top-level `updatedAt`: which realtime update it shows.
    var updatedAt: String?
    /// Equal texts have equal hashes (within this process), so every client's copy of a round can be compared.
    var hash: Int
    var bytes: Int
}

/// A one-shot signal many tasks can wait on.
final class Signal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func fire() {
        let waiters = state.withLock { s in
            s.fired = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w.resume() }
    }

    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s in
                if s.fired { return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }
}

/// One live subscriber: a WebSocket client that logs every message it receives.
final class Subscriber: Sendable {
    enum Phase: Sendable { case connecting, open, closed, failed(String) }

    let index: Int
    /// Keep the full texts (one client does, to check what they hold).
    let keepTexts: Bool
    private let state = Mutex<(phase: Phase, log: [Received], texts: [String])>((.connecting, [], []))

    init(index: Int, keepTexts: Bool) {
        self.index = index
        self.keepTexts = keepTexts
    }

    var log: [Received] { state.withLock { $0.log } }
    var texts: [String] { state.withLock { $0.texts } }
    var count: Int { state.withLock { $0.log.count } }
    var lastUpdatedAt: String? { state.withLock { $0.log.last?.updatedAt } }
    var phase: Phase { state.withLock { $0.phase } }

    /// Connects, reads every message until `stop` fires, then closes normally.
    func run(url: String, stop: Signal, logger: Logger) async {
        var configuration = WebSocketClientConfiguration()
        configuration.maxFrameSize = 1 << 22
        do {
            try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                self.state.withLock { $0.phase = .open }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            // The time first: everything after is this tool's own work.
                            let at = Clock.nanos()
                            guard case .text(let text) = message else { continue }
                            self.record(at: at, text: text)
                        }
                    }
                    group.addTask { await stop.wait() }
                    // Told to stop (or the server closed): returning from the handler closes the WebSocket normally.
                    try await group.next()
                    group.cancelAll()
                }
            }
            state.withLock { s in if case .open = s.phase { s.phase = .closed } }
        } catch {
            state.withLock { $0.phase = .failed(String(describing: error)) }
        }
    }

    private func record(at: Int64, text: String) {
        var hasher = Hasher()
        hasher.combine(text)
        let entry = Received(at: at, updatedAt: Self.updatedAt(in: text), hash: hasher.finalize(), bytes: text.utf8.count)
        state.withLock { s in
            s.log.append(entry)
            if keepTexts { s.texts.append(text) }
        }
    }

    /// The top-level `"updatedAt":"…"` of a live message. Keys are sorted, so
    /// it is the last one (the board's own `live.updatedAt` comes earlier).
    static func updatedAt(in text: String) -> String? {
        guard let key = text.range(of: #""updatedAt":""#, options: .backwards) else { return nil }
        guard let end = text[key.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(text[key.upperBound..<end])
    }
}
