import Foundation
import InMemoryLogging
import Logging
import Server
import Synchronization
import Testing

/// The relay between servers, on a transport that fails: changes are still taken in order, and the
/// failure is said at the 1st, 10th and 100th in a row, not once per change.
@Suite("live relay")
struct LiveRelayTests {
    final class FailingTransport: RelayTransport {
        let sends = Mutex(0)
        let sent: AsyncStream<Int>.Continuation
        let counts: AsyncStream<Int>
        init() { (counts, sent) = AsyncStream.makeStream() }

        struct Down: Error {}

        func send(_ text: String) async throws {
            sent.yield(sends.withLock { $0 += 1; return $0 })
            throw Down()
        }

        func listen(_ heard: @escaping @Sendable (String?) async -> Void) async {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3_600)) }
        }
    }

    @Test("a database that is away is not a log flood")
    func failuresLoggedSparingly() async throws {
        let handler = InMemoryLogHandler()
        let transport = FailingTransport()
        let relay = LiveRelay(transport: transport, logger: Logger(label: "relay-test") { _ in handler })
        let running = Task { try await relay.run() }
        for i in 0..<150 { relay.announce(.routes(account: "a\(i)")) }
        for await count in transport.counts where count == 150 { break }
        running.cancel()
        let warnings = handler.entries.filter { $0.level == .warning }
        #expect(warnings.map { $0.metadata["failures"] } == ["1", "10", "100"])
    }
}
