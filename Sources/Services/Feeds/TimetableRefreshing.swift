/// A check of the static feeds for new versions, now: what an operator's `onward feeds refresh`
/// asks for. Implemented where the feeds are kept (the composition root); the server's route
/// only checks who asks.
public protocol TimetableRefreshing: Sendable {
    /// The configured static feeds, by name.
    var feedNames: [String] { get }
    /// Checks `feed` (nil: every feed) now and swaps in what is accepted.
    func refreshNow(feed: String?) async -> TimetableRefreshOutcome
}

/// What a check asked for came to.
public enum TimetableRefreshOutcome: Sendable, Hashable {
    /// A new version went into service.
    case accepted
    /// Nothing new was taken (unchanged, or refused: the timetables' health says which).
    case unchanged
    /// Another server checks the feeds (servers sharing a database): it was asked, and what it takes reaches this one.
    case askedOfAnother
}
