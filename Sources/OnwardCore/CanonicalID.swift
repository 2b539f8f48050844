/// Public IDs are `SOURCE:LOCAL` (OpenTripPlanner's `feedId:id`): the source's
/// name from configuration, then the ID the source itself uses. One rule, here.
public enum CanonicalID {
    public static let separator: Character = ":"

    /// `source:local`.
    public static func make(source: String, local: String) -> String { source + ":" + local }

    /// The source name and local ID of `id`, split at the first `:`; nil when `id` has
    /// no `:`. Whether the part before it really names a source is for the caller to say:
    /// a local ID may contain `:` too.
    public static func split(_ id: String) -> (source: String, local: String)? {
        guard let i = id.firstIndex(of: separator) else { return nil }
        return (String(id[..<i]), String(id[id.index(after: i)...]))
    }

    /// Whether `name` may name a source: lower-case letters, digits and `-`, starting
    /// with a letter or digit, at most 40 characters (so it reads well in a URL).
    public static func isValidSourceName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 40 else { return false }
        func ok(_ c: UInt8) -> Bool { (c >= 97 && c <= 122) || (c >= 48 && c <= 57) }
        return ok(first) && name.utf8.allSatisfy { ok($0) || $0 == 45 }
    }

    /// A source name made from a file name or any text: lower case, runs of other
    /// characters as one `-`, extensions dropped ("Halifax Transit 2025.zip" → "halifax-transit-2025").
    public static func slug(_ text: String) -> String {
        var base = Substring(text)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        for ext in [".zip", ".onward", ".pb", ".json", ".xml"] where base.lowercased().hasSuffix(ext) {
            base = base.dropLast(ext.count)
        }
        var out = ""
        var pendingDash = false
        for scalar in base.unicodeScalars {
            let c = Character(scalar).lowercased()
            if scalar.isASCII, let a = c.first, a.isLetter || a.isNumber {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(a)
            } else {
                pendingDash = true
            }
        }
        var trimmed = String(out.prefix(40))
        while trimmed.hasSuffix("-") { trimmed.removeLast() }
        return trimmed.isEmpty ? "feed" : trimmed
    }
}
