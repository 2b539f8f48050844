import OnwardCore
import TransitSources

/// The configured sources, by public name, and the one rule for reading an ID:
/// `SOURCE:LOCAL` goes to that source; an unprefixed ID is accepted when exactly
/// one source recognises it.
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

    /// The source and canonical ID for `id`, or nil when no source here has it.
    /// `alsoKnown` lets a caller say that an unprefixed ID is also known elsewhere
    /// (the GTFS network, which is not in this registry yet), which makes it ambiguous.
    public func resolve(_ id: String, as kind: IDKind, alsoKnown: Bool = false) -> (source: any TransitSource, id: String)? {
        if let (name, _) = CanonicalID.split(id), let s = source(named: name) { return (s, id) }
        if alsoKnown { return nil }
        var found: [(any TransitSource, String)] = []
        for s in sources {
            for name in s.sourceNames where s.recognizes(localID: id, as: kind) {
                found.append((s, CanonicalID.make(source: name, local: id)))
            }
        }
        return found.count == 1 ? found[0] : nil
    }

    /// Whether `id` is explicitly prefixed with one of these sources' names.
    public func owns(_ id: String) -> Bool {
        CanonicalID.split(id).map { source(named: $0.source) != nil } ?? false
    }
}
