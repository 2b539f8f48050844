import OnwardCore

/// The public IDs of National Rail things: `national-rail:ECR` for a station (its CRS
/// code), `national-rail:` + Darwin's serviceID for a service (kept exactly as
/// Darwin sends it, `/`, `+` and `=` included), `national-rail:SN` for an operator.
public enum NationalRailIDs {
    /// The source's public name.
    public static let source = "national-rail"

    /// `national-rail:ECR`.
    public static func station(_ crs: String) -> String { CanonicalID.make(source: source, local: crs) }
    /// `national-rail:` + Darwin's serviceID, unchanged.
    public static func service(_ serviceID: String) -> String { CanonicalID.make(source: source, local: serviceID) }
    /// `national-rail:SN`: an operator stands in for a route.
    public static func route(_ operatorCode: String) -> String { CanonicalID.make(source: source, local: operatorCode) }

    /// The local part of an ID given with or without the `national-rail:` prefix; nil
    /// for another source's ID (`halifax:123`). Darwin's serviceIDs are base64 or
    /// RID-like and carry no `:`, so an unprefixed one is taken as it is.
    public static func local(_ id: String) -> String? {
        let prefix = source + ":"
        if id.hasPrefix(prefix) { return String(id.dropFirst(prefix.count)) }
        if CanonicalID.split(id) != nil { return nil }
        return id
    }

    /// A CRS code: three letters, upper-cased; nil for anything else.
    public static func crs(_ text: String) -> String? {
        let upper = text.uppercased()
        guard upper.utf8.count == 3, upper.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else { return nil }
        return upper
    }
}
