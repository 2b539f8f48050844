/// A check of the static feeds for new versions, now: what an operator's `onward feeds refresh`
/// asks for. Implemented where the feeds are kept (the composition root); the server's route
/// only checks who asks.
public protocol TimetableRefreshing: Sendable {
    /// The configured static feeds, by name.
    var feedNames: [String] { get }
    /// Checks `feed` (nil: every feed) now and swaps in what is accepted; whether a new version went into service.
    func refreshNow(feed: String?) async -> Bool
}
