import Foundation

/// A clock that moves only when a test advances it, so code that sleeps (a
/// poller's loop) runs in tests without real waiting. Each sleep is announced on
/// `sleeps`, so a test waits for "the code is now sleeping" instead of guessing.
public final class TestClock: Clock, @unchecked Sendable {
    /// Time since the clock was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public var description: String { "t+\(offset)" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    // A lock, not an actor: `now` must be readable synchronously, as Clock requires.
    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var nextID = 0
    private let announce: AsyncStream<Duration>.Continuation

    /// Each sleep's requested duration, in the order sleeps begin.
    public let sleeps: AsyncStream<Duration>

    public init() {
        (sleeps, announce) = AsyncStream.makeStream(of: Duration.self)
    }

    public var now: Instant { lock.withLock { current } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting for the clock to advance.
    public var pendingSleeps: Int { lock.withLock { sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { defer { nextID += 1 }; return nextID }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    announce.yield(current.duration(to: deadline))
                    // Checked under the lock: a cancellation that came before we were listed is seen here.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
