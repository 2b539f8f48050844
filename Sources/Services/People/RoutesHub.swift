import OnwardCore

/// Announces a person's saved routes after each change to every live connection of that
/// person on this server, and through the relay (when servers share a database) on the others.
/// A slow connection skips to the newest state, never a backlog.
public final class RoutesHub: Sendable {
    private let relay = LiveRelay.Slot()
    /// By account.
    private let changes = LiveHub<String, SavedRoutes?>()

    public init() {}

    /// The person's changes from now on; `nil` when the account is deleted, after which the stream ends.
    public func subscribe(_ accountId: String) -> AsyncStream<SavedRoutes?> { changes.subscribe(accountId) }

    /// Sends this hub's changes to the other servers too.
    func relay(_ relay: LiveRelay) { self.relay.set(relay) }

    /// A change made on this server: announced here and to the other servers.
    public func publish(_ routes: SavedRoutes, of accountId: String) {
        deliver(routes, of: accountId)
        relay.announce(.routes(account: accountId))
    }

    /// Announces on this server only (what the relay brings from another).
    func deliver(_ routes: SavedRoutes, of accountId: String) { changes.publish(routes, to: accountId) }

    /// Ends every connection of an account that no longer exists (or signed out everywhere), on every server.
    public func close(_ accountId: String) {
        deliverClose(accountId)
        relay.announce(.accountClosed(account: accountId))
    }

    func deliverClose(_ accountId: String) {
        changes.publish(nil, to: accountId)
        changes.finish(accountId)
    }

    /// The accounts with a live connection on this server.
    var accountsListening: [String] { changes.topics }

    /// How many live connections are listening.
    public var count: Int { changes.count }
}
