import OnwardCore

/// What an ID given by a person or a client resolves to.
public enum IDLookup<Index: Sendable>: Sendable {
    case found(Index)
    /// An unprefixed ID that several feeds have: their canonical IDs, sorted.
    case ambiguous([String])
    case notFound

    public var found: Index? {
        if case .found(let i) = self { return i }
        return nil
    }

    func map<T>(_ f: (UInt32) -> T) -> IDLookup<T> where Index == UInt32 {
        switch self {
        case .found(let i): .found(f(i))
        case .ambiguous(let c): .ambiguous(c)
        case .notFound: .notFound
        }
    }
}

extension Timetable {
    /// The feed named `name`, if one is loaded.
    public func feed(named name: String) -> FeedSummary? { feeds.first { $0.name == name } }

    /// The prefix (`name:`) of the feed realtime data belongs to when it names none: the first feed's.
    public var defaultIDPrefix: String { feeds.first?.idPrefix ?? "" }

    /// Every ID stored is canonical (`feed:local`, prefixed at import), so a canonical ID is
    /// one exact search. Only when that fails, and the ID's prefix names no loaded feed, is it
    /// taken as a local ID and tried in each feed: a few more searches per query, none per row.
    /// Static, given the feeds and a search over the arrays it needs: a closure over `self` copied
    /// the whole timetable (retaining each of its arrays) on every lookup, which showed in
    /// profiles of a board served from the cache.
    static func resolveID(_ id: String, feeds: [FeedSummary], exact: (String) -> UInt32?) -> IDLookup<UInt32> {
        // An ID with no ':' is never a stored one when every feed prefixes its IDs (as an import does): no search.
        let mayBeStored = id.utf8.contains(UInt8(ascii: ":")) || feeds.isEmpty || feeds.contains { $0.idPrefix.isEmpty }
        if mayBeStored, let i = exact(id) { return .found(i) }
        if let (source, _) = CanonicalID.split(id), feeds.contains(where: { $0.name == source }) { return .notFound }
        var found: [(id: String, index: UInt32)] = []
        for feed in feeds where !feed.idPrefix.isEmpty {
            let candidate = feed.idPrefix + id
            if let i = exact(candidate) { found.append((candidate, i)) }
        }
        switch found.count {
        case 0: return .notFound
        case 1: return .found(found[0].index)
        default: return .ambiguous(found.map(\.id).sorted())
        }
    }
}
