import OnwardCore
import Synchronization

/// Announces a person's saved routes after each change to every live connection of that
/// person on this server, and through the relay (when servers share a database) on the others.
/// A slow connection skips to the newest state, never a backlog.
public final class RoutesHub: Sendable {
    private let relay = Mutex<LiveRelay?>(nil)
    private typealias Continuation = AsyncStream<SavedRoutes?>.Continuation
    /// By account, then by connection.
    private let listeners = Mutex<[String: [Int: Continuation]]>([:])
    private let nextID = Atomic<Int>(0)

    public init() {}

    /// The person's changes from now on; `nil` when the account is deleted, after which the stream ends.
    public func subscribe(_ accountId: String) -> AsyncStream<SavedRoutes?> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<SavedRoutes?>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { l in
                l[accountId]?[id] = nil
                if l[accountId]?.isEmpty == true { l[accountId] = nil }
            }
        }
        listeners.withLock { $0[accountId, default: [:]][id] = continuation }
        return stream
    }

    /// Sends this hub's changes to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.withLock { $0 = relay } }

    /// A change made on this server: announced here and to the other servers.
    public func publish(_ routes: SavedRoutes, of accountId: String) {
        deliver(routes, of: accountId)
        relay.withLock { $0 }?.announce(.routes(account: accountId))
    }

    /// Announces on this server only (what the relay brings from another).
    func deliver(_ routes: SavedRoutes, of accountId: String) {
        for c in listeners.withLock({ Array(($0[accountId] ?? [:]).values) }) { c.yield(routes) }
    }

    /// Ends every connection of an account that no longer exists (or signed out everywhere), on every server.
    public func close(_ accountId: String) {
        deliverClose(accountId)
        relay.withLock { $0 }?.announce(.accountClosed(account: accountId))
    }

    func deliverClose(_ accountId: String) {
        for c in listeners.withLock({ Array(($0[accountId] ?? [:]).values) }) {
            c.yield(nil)
            c.finish()
        }
    }

    /// The accounts with a live connection on this server.
    var accountsListening: [String] { listeners.withLock { Array($0.keys) } }

    /// How many live connections are listening.
    public var count: Int { listeners.withLock { $0.values.reduce(0) { $0 + $1.count } } }
}
