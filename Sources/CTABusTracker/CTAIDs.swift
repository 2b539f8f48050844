import OnwardCore

/// The adapter's canonical IDs: `cta:1926` for a stop, `cta:22` for a route, `cta:204510`
/// (or `cta:vid-4336` when the bus tracker sends no trip) for a service.
public enum CTAIDs {
    /// The source name in every ID this adapter gives.
    public static let source = "cta"

    /// `cta:` and the bus tracker's own ID.
    public static func canonical(_ local: String) -> String { CanonicalID.make(source: source, local: local) }

    /// The bus tracker's own ID inside `id` (`cta:1926` or a bare `1926`), or nil when it
    /// belongs to another source or could not be a bus tracker ID.
    ///
    /// Stop IDs, route designators and vehicle IDs are short runs of letters and digits
    /// ("1926", "J14", "8A"). Checking that here keeps anything else (a comma that would
    /// add a stop to a request, a space, a slash) from ever reaching a URL, and saves a
    /// request that could only fail.
    public static func local(_ id: String) -> String? {
        var local = Substring(id)
        if let (source, rest) = CanonicalID.split(id) {
            guard source == Self.source else { return nil }
            local = Substring(rest)
        }
        guard (1...16).contains(local.utf8.count),
              local.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) })
        else { return nil }
        return String(local)
    }

    /// A direction as `getstops` takes it: letters, digits and spaces ("Northbound", "North Bound").
    public static func isValidDirection(_ direction: String) -> Bool {
        (1...40).contains(direction.utf8.count)
            && direction.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 }
    }
}
