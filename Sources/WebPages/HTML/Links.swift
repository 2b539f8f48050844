import Foundation

/// The site's addresses, built in one place so pages and tests agree on them.
/// IDs go into paths percent-encoded: a stop ID from a feed may hold `/`, `?`,
/// `#` or spaces.
public enum Links {
    public static let home = "/"
    public static let alerts = "/alerts"
    public static let search = "/search"
    public static let stopsAPI = "/api/v1/stops"
    public static let nearbyAPI = "/api/v1/stops/nearby"
    public static let live = "/live"
    /// A signed-in person's routes and stacks, their account, and the pages to sign in.
    public static let me = "/me"
    public static let trips = "/trips"
    public static func trip(_ id: String) -> String { "/trips/" + pathSegment(id) }
    public static let glance = "/glance"
    public static let account = "/account"
    public static let signIn = "/signin"
    public static let signUp = "/signup"
    public static let signOut = "/signout"

    /// `/stops/{id}`, with `to=` (departures) or `from=` plus `arrivals=1` (arrivals).
    public static func board(_ stopID: String, arrivals: Bool = false, via: String? = nil) -> String {
        var query: [(String, String)] = []
        if arrivals { query.append(("arrivals", "1")) }
        if let via { query.append((arrivals ? "from" : "to", via)) }
        return "/stops/" + pathSegment(stopID) + queryString(query)
    }

    /// `/journeys`, optionally with the origin (and destination) filled in.
    /// The commute page; which commute travels in the fragment (`#ID`), so no server log sees it.
    public static func commute() -> String { "/commute" }

    public static func journeys(from: String? = nil, to: String? = nil) -> String {
        var query: [(String, String)] = []
        if let from { query.append(("from", from)) }
        if let to { query.append(("to", to)) }
        return "/journeys" + queryString(query)
    }

    /// `/services/{tripId}?date=YYYY-MM-DD`.
    public static func service(_ tripID: String, date: String?) -> String {
        "/services/" + pathSegment(tripID) + queryString(date.map { [("date", $0)] } ?? [])
    }

    /// `/alerts`, optionally about one stop or route.
    public static func alerts(stop: String? = nil, route: String? = nil) -> String {
        var query: [(String, String)] = []
        if let stop { query.append(("stop", stop)) }
        if let route { query.append(("route", route)) }
        return alerts + queryString(query)
    }

    /// `/search?q=…`.
    /// A source's routes, a route's directions, a direction's stops.
    public static func routes(source: String) -> String { "/sources/" + pathSegment(source) + "/routes" }
    public static func route(_ routeID: String, direction: String? = nil) -> String {
        "/routes/" + pathSegment(routeID) + (direction.map { "/directions/" + pathSegment($0) } ?? "")
    }

    public static func search(_ text: String) -> String { search + queryString([("q", text)]) }

    /// `?a=1&b=2`, or nothing for no pairs.
    public static func queryString(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "?" + pairs.map { queryComponent($0.0) + "=" + queryComponent($0.1) }.joined(separator: "&")
    }

    /// One path segment: everything but unreserved characters percent-encoded.
    public static func pathSegment(_ text: String) -> String { percentEncode(text, keepingAlso: "") }

    /// One query name or value.
    public static func queryComponent(_ text: String) -> String { percentEncode(text, keepingAlso: "") }

    /// RFC 3986 unreserved characters (and `extra`, which must be ASCII) stay;
    /// every other UTF-8 byte becomes `%XX`. Byte by byte: building a
    /// `Character` per byte was a tenth of a board page's render time.
    static func percentEncode(_ text: String, keepingAlso extra: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case _ where byte < 0x80 && extra.utf8.contains(byte):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A link from a feed (an alert's "more information"), if it is safe to
    /// render: only absolute `http` and `https` URLs with a host, so a
    /// `javascript:` or `data:` address never becomes clickable.
    public static func external(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty, text.count <= 2000,
              !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return nil }
        return text
    }
}
