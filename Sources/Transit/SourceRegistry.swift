import OnwardCore
import TransitSources

/// The configured sources, by public name, and the one rule for reading an ID:
/// `SOURCE:LOCAL` goes to that source; an unprefixed ID is accepted when exactly
/// one source (one feed) has it.
public struct SourceRegistry: Sendable {
    public let sources: [any TransitSource]
    private let byName: [String: Int]

    public init(_ sources: [any TransitSource]) {
        self.sources = sources
        var names: [String: Int] = [:]
        for (i, s) in sources.enumerated() {
            for n in s.sourceNames where names[n] == nil { names[n] = i }
        }
        byName = names
    }

    public static let empty = SourceRegistry([])

    public var isEmpty: Bool { sources.isEmpty }

    public func source(named name: String) -> (any TransitSource)? { byName[name].map { sources[$0] } }

    /// Every public source name, sorted.
    public var names: [String] { byName.keys.sorted() }

    /// What an ID given by a person or a client names here.
    public enum Resolution: Sendable {
        case found(source: any TransitSource, id: String)
        /// An unprefixed ID that several sources (or feeds) have: their canonical IDs, sorted.
        case ambiguous([String])
        case notFound
    }

    public func lookup(_ id: String, as kind: IDKind) -> Resolution {
        if let (name, _) = CanonicalID.split(id), let s = source(named: name) { return .found(source: s, id: id) }
        var found: [(source: any TransitSource, id: String)] = []
        for s in sources {
            for canonical in s.canonicalIDs(forLocal: id, as: kind) { found.append((s, canonical)) }
        }
        switch found.count {
        case 0: return .notFound
        case 1: return .found(source: found[0].source, id: found[0].id)
        default: return .ambiguous(found.map(\.id).sorted())
        }
    }

    /// The source and canonical ID for `id`, or nil when no source here has it (or several do).
    public func resolve(_ id: String, as kind: IDKind) -> (source: any TransitSource, id: String)? {
        if case .found(let s, let canonical) = lookup(id, as: kind) { return (s, canonical) }
        return nil
    }

    /// Whether `id` is explicitly prefixed with one of these sources' names.
    public func owns(_ id: String) -> Bool {
        CanonicalID.split(id).map { source(named: $0.source) != nil } ?? false
    }

    /// The one source that announces changes (the GTFS network), if any.
    public var updates: (any SourceUpdates)? { sources.lazy.compactMap(\.updates).first }
}
