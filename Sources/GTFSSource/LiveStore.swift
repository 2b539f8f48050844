import Foundation
import Synchronization
import TransitSources

/// Holds the current `NetworkState` and swaps it atomically on each update;
/// subscribers hear that something changed and read the state afresh, so one
/// that falls behind catches up with the current state, not a backlog.
public final class LiveStore: SourceUpdates {
    private let state: Mutex<NetworkState>
    private let subscribers = Mutex<[UUID: AsyncStream<Int>.Continuation]>([:])

    public init(_ initial: NetworkState) {
        state = Mutex(initial)
    }

    /// The state now: a value, safe to read at leisure while updates go on.
    public var current: NetworkState { state.withLock { $0 } }

    public var version: Int { state.withLock { $0.version } }

    /// Changes the state and tells every subscriber.
    public func update(_ change: (inout NetworkState) -> Void) {
        let version = state.withLock { s in
            change(&s)
            s.version += 1
            return s.version
        }
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(version) }
    }

    /// Versions as they are applied; only the newest is kept for a slow reader.
    public func subscribe() -> AsyncStream<Int> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
