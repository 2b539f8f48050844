import OnwardCore
import Storage

/// The live connections opened with each session, ended when their session ends: signed out (that
/// session, or everywhere), or the account deleted, on this server and, through the relay, on the
/// others. A connection a signed-out session opened never hears the person's data again.
public final class SessionEnds: Sendable {
    private struct Session: Hashable, Sendable {
        var tokenHash: String
        var account: String
    }

    /// Nothing is ever published: a watch only finishes.
    private let watches = LiveHub<Session, Never>()
    private let relay = LiveRelay.Slot()

    public init() {}

    /// A stream that finishes when `session` ends. Taken when a live connection opens; the connection
    /// closes when it finishes.
    public func watch(_ session: SessionRecord) -> AsyncStream<Never> {
        watches.subscribe(Session(tokenHash: session.tokenHash, account: session.accountId))
    }

    /// Sends endings to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.set(relay) }

    /// One session ended (signed out): its connections close here and on the other servers.
    public func end(session tokenHash: String) {
        deliverEnd(session: tokenHash)
        relay.announce(.sessionEnded(session: tokenHash))
    }

    /// Every session of an account ended (signed out everywhere, or deleted). The relay carries this
    /// as `accountClosed`, which the routes hub announces too.
    public func endAll(account: String) { deliverEndAll(account: account) }

    func deliverEnd(session tokenHash: String) { watches.finish { $0.tokenHash == tokenHash } }

    func deliverEndAll(account: String) { watches.finish { $0.account == account } }

    /// How many live connections are watched.
    public var count: Int { watches.count }
}
