/// Where in a feed a problem was found: the file, the line (1 = header) and the field.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var field: String?

    public init(file: String, line: Int? = nil, field: String? = nil) {
        self.file = file; self.line = line; self.field = field
    }

    public var description: String {
        var s = file
        if let line { s += ":\(line)" }
        if let field { s += " (\(field))" }
        return s
    }
}

/// A problem that makes a feed unusable: the import is refused.
public struct FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable code: `missingFile`, `missingColumn`, `duplicateKey`, `unknownReference`, `invalidValue`, `unreadable`.
    public var code: String
    public var location: SourceLocation
    public var message: String

    public init(code: String, location: SourceLocation, message: String) {
        self.code = code; self.location = location; self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// A problem confined to one row or one trip: the row is skipped and the import goes on.
public struct ImportNotice: Sendable, Hashable, Codable {
    /// A stable kind, e.g. `tripTooShort`, `timeTravel`, `missingEndpointTime`, `unusedRow`.
    public var kind: String
    public var location: SourceLocation
    public var message: String

    public init(kind: String, location: SourceLocation, message: String) {
        self.kind = kind; self.location = location; self.message = message
    }
}

/// Notices grouped by kind: a count of each and the first few examples.
public struct NoticeSummary: Sendable {
    public struct Group: Sendable {
        public var kind: String
        public var count: Int
        public var examples: [ImportNotice]
    }

    public private(set) var groups: [Group] = []
    public var total: Int { groups.reduce(0) { $0 + $1.count } }

    public init(_ notices: [ImportNotice], examplesPerKind: Int = 3) {
        var byKind: [String: Int] = [:]
        for n in notices {
            if let i = byKind[n.kind] {
                groups[i].count += 1
                if groups[i].examples.count < examplesPerKind { groups[i].examples.append(n) }
            } else {
                byKind[n.kind] = groups.count
                groups.append(Group(kind: n.kind, count: 1, examples: [n]))
            }
        }
        groups.sort { $0.count > $1.count || ($0.count == $1.count && $0.kind < $1.kind) }
    }
}
