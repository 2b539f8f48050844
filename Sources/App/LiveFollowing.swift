import DataSources
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization

/// A live WebSocket a client follows (`onward glance --follow`): connects with a bearer token,
/// hands each text message on, and after a lost connection waits as every poller does (the shared
/// `Backoff`, with jitter) and connects again, until the task is cancelled.
public enum LiveFollowing {
    /// - Parameters:
    ///   - url: an http(s) server address and path; followed over ws(s).
    ///   - onText: each text message; a message that decodes to nothing is the caller's to skip.
    ///   - onLost: told the wait before the next attempt when a connection failed or broke.
    public static func follow(_ url: String, token: String, backoff: Backoff = Backoff(base: .seconds(1), factor: 2, cap: .seconds(30)),
                              onText: @escaping @Sendable (String) async throws -> Void,
                              onLost: @Sendable (Duration) -> Void) async throws {
        let socket = url.replacingOccurrences(of: "http://", with: "ws://").replacingOccurrences(of: "https://", with: "wss://")
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.authorization: "Bearer \(token)"]
        var logger = Logger(label: "onward-live")
        logger.logLevel = .critical
        var failures = 0
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let heard = Mutex(false)
            var lost = false
            do {
                try await WebSocketClient.connect(url: socket, configuration: configuration, logger: logger) { inbound, _, _ in
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case .text(let text) = message else { continue }
                        heard.withLock { $0 = true }
                        try await onText(text)
                    }
                }
            } catch {
                lost = true
            }
            // A connection that worked starts the backoff again.
            failures = heard.withLock { $0 } ? 1 : failures + 1
            let wait = backoff.delay(afterFailures: failures, using: &random)
            if lost { onLost(wait) }
            try await Task.sleep(for: wait)
        }
    }
}
