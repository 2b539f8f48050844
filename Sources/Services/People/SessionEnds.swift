import Storage
import Synchronization

/// The live connections opened with each session, ended when their session ends: signed out (that
/// session, or everywhere), or the account deleted, on this server and, through the relay, on the
/// others. A connection a signed-out session opened never hears the person's data again.
public final class SessionEnds: Sendable {
    private struct Watcher {
        var session: String
        var account: String
        var continuation: AsyncStream<Void>.Continuation
    }

    private let watchers = Mutex<[Int: Watcher]>([:])
    private let nextID = Atomic<Int>(0)
    private let relay = Mutex<LiveRelay?>(nil)

    public init() {}

    /// A stream that finishes when `session` ends. Taken when a live connection opens; the connection
    /// closes when it finishes.
    public func watch(_ session: SessionRecord) -> AsyncStream<Void> {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        continuation.onTermination = { [weak self] _ in _ = self?.watchers.withLock { $0.removeValue(forKey: id) } }
        watchers.withLock { $0[id] = Watcher(session: session.tokenHash, account: session.accountId, continuation: continuation) }
        return stream
    }

    /// Sends endings to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.withLock { $0 = relay } }

    /// One session ended (signed out): its connections close here and on the other servers.
    public func end(session tokenHash: String) {
        deliverEnd(session: tokenHash)
        relay.withLock { $0 }?.announce(.sessionEnded(session: tokenHash))
    }

    /// Every session of an account ended (signed out everywhere, or deleted). The relay carries this
    /// as `accountClosed`, which the routes hub announces too.
    public func endAll(account: String) { deliverEndAll(account: account) }

    func deliverEnd(session tokenHash: String) { finish { $0.session == tokenHash } }

    func deliverEndAll(account: String) { finish { $0.account == account } }

    private func finish(_ matching: (Watcher) -> Bool) {
        for w in watchers.withLock({ $0.values.filter(matching) }) { w.continuation.finish() }
    }

    /// How many live connections are watched.
    public var count: Int { watchers.withLock { $0.count } }
}
