/// A route as `getroutes` lists it.
public struct CTARoute: Sendable, Hashable {
    /// The route designator the other requests take ("22", "J14", "8A").
    public var route: String
    /// "Clark".
    public var name: String
    /// `RRGGBB`, upper case, without the `#` the bus tracker sends.
    public var color: String?
    /// v3's display designator (`rtdd`), when it differs.
    public var designator: String?

    public init(route: String, name: String, color: String? = nil, designator: String? = nil) {
        self.route = route; self.name = name; self.color = color; self.designator = designator
    }

    init?(record r: CTARecord) {
        guard let rt = r.text("rt") else { return nil }
        self.init(route: rt, name: r.text("rtnm") ?? rt, color: r.text("rtclr").flatMap(Self.color),
                  designator: r.text("rtdd"))
    }

    /// "#cc3300" → "CC3300"; nil for anything that is not six hex digits.
    static func color(_ text: String) -> String? {
        let hex = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else { return nil }
        return hex.uppercased()
    }
}

/// One direction of a route. v2 sends only a name (`<dir>Northbound</dir>`); v3 an ID and
/// a name that may be in another language. `getstops` takes the ID.
public struct CTADirection: Sendable, Hashable {
    public var id: String
    public var name: String

    public init(id: String, name: String) { self.id = id; self.name = name }

    init?(record r: CTARecord) {
        guard let id = r.text("id", "dir", "name") else { return nil }
        self.init(id: id, name: r.text("name", "dir") ?? id)
    }
}

/// A stop as `getstops` lists it.
public struct CTAStop: Sendable, Hashable {
    /// The number on the stop's sign ("1926").
    public var id: String
    /// "Clark & Addison", trimmed (the bus tracker leaves trailing spaces on some names).
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(id: String, name: String, latitude: Double, longitude: Double) {
        self.id = id; self.name = name; self.latitude = latitude; self.longitude = longitude
    }

    init?(record r: CTARecord) {
        guard let id = r.text("stpid"), let name = r.text("stpnm"),
              let lat = r.double("lat"), let lon = r.double("lon"),
              (-90...90).contains(lat), (-180...180).contains(lon) else { return nil }
        self.init(id: id, name: name, latitude: lat, longitude: lon)
    }
}
