import Foundation

/// One bus tracker request: an endpoint and its parameters, without the key.
///
/// The key is added only when the URL is built (`url(base:key:)`), so a request can be
/// logged, compared and used as a cache key (`cacheKey`) without ever holding it.
public struct CTARequest: Sendable, Hashable, CustomStringConvertible {
    /// The bus tracker operations this adapter uses (`BASE/getpredictions`, …).
    public enum Endpoint: String, Sendable, Hashable, CaseIterable {
        case routes = "getroutes"
        case directions = "getdirections"
        case stops = "getstops"
        case predictions = "getpredictions"
        case serviceBulletins = "getservicebulletins"
        case vehicles = "getvehicles"
        case time = "gettime"
    }

    /// One query item, in the order it is sent: a name and one value, or a list the
    /// bus tracker reads comma-separated (`stpid=1,2,3`).
    public struct Parameter: Sendable, Hashable {
        public var name: String
        public var values: [String]

        public init(_ name: String, _ value: String) { self.name = name; self.values = [value] }
        public init(_ name: String, list: [String]) { self.name = name; self.values = list }

        /// The value as sent, before percent-encoding.
        public var value: String { values.joined(separator: ",") }
    }

    /// The bus tracker's own API, version 3. A configured base replaces it up to and including the version.
    public static let defaultBase = URL(string: "https://www.ctabustracker.com/bustime/api/v3")!

    /// The most stop, route or vehicle IDs the bus tracker takes in one request.
    public static let maxIDsPerRequest = 10

    public var endpoint: Endpoint
    public var parameters: [Parameter]

    public init(_ endpoint: Endpoint, _ parameters: [Parameter] = []) {
        self.endpoint = endpoint; self.parameters = parameters
    }

    /// The operation's name for messages ("getpredictions"): what failed, never where.
    public var operation: String { endpoint.rawValue }

    /// The value of a parameter, if the request has it.
    public func value(of name: String) -> String? { parameters.first { $0.name == name }?.value }

    // MARK: - The requests

    /// Every route.
    public static let routes = CTARequest(.routes)

    /// The directions of one route ("Northbound", "Southbound").
    public static func directions(route: String) -> CTARequest { CTARequest(.directions, [Parameter("rt", route)]) }

    /// The stops of one route in one direction.
    public static func stops(route: String, direction: String) -> CTARequest {
        CTARequest(.stops, [Parameter("rt", route), Parameter("dir", direction)])
    }

    /// Predictions for stops, as few requests as the bus tracker allows: at most ten stop
    /// IDs each, duplicates dropped, in the order given.
    /// - Parameters:
    ///   - route: only this route's predictions.
    ///   - top: at most this many predictions per request.
    public static func predictions(stopIDs: [String], route: String? = nil, top: Int? = nil) -> [CTARequest] {
        batches(of: stopIDs).map { batch in
            var parameters = [Parameter("stpid", list: batch)]
            if let route { parameters.append(Parameter("rt", route)) }
            if let top, top > 0 { parameters.append(Parameter("top", String(top))) }
            return CTARequest(.predictions, parameters)
        }
    }

    /// The service bulletins of a route.
    public static func serviceBulletins(route: String) -> CTARequest {
        CTARequest(.serviceBulletins, [Parameter("rt", route)])
    }

    /// The service bulletins of a stop.
    public static func serviceBulletins(stopID: String) -> CTARequest {
        CTARequest(.serviceBulletins, [Parameter("stpid", stopID)])
    }

    /// The vehicles on a route.
    public static func vehicles(route: String) -> CTARequest { CTARequest(.vehicles, [Parameter("rt", route)]) }

    /// Vehicles by ID, at most ten a request.
    public static func vehicles(vehicleIDs: [String]) -> [CTARequest] {
        batches(of: vehicleIDs).map { CTARequest(.vehicles, [Parameter("vid", list: $0)]) }
    }

    /// The bus tracker's clock.
    public static let time = CTARequest(.time)

    /// `ids` without duplicates, in chunks the bus tracker accepts.
    static func batches(of ids: [String]) -> [[String]] {
        var seen = Set<String>()
        let unique = ids.filter { seen.insert($0).inserted }
        return stride(from: 0, to: unique.count, by: maxIDsPerRequest).map {
            Array(unique[$0..<min($0 + maxIDsPerRequest, unique.count)])
        }
    }

    // MARK: - URL

    /// `BASE/endpoint?params&key=…&format=json`. Each value is percent-encoded on its own
    /// (a comma too), so nothing inside an ID can add a parameter or another list item:
    /// the only bare commas are those that join a list.
    public func url(base: URL, key: String) -> URL {
        let items = parameters + [Parameter("key", key), Parameter("format", "json")]
        let query = items.map { item in
            Self.encode(item.name) + "=" + item.values.map(Self.encode).joined(separator: ",")
        }.joined(separator: "&")
        var components = URLComponents(url: base.appendingPathComponent(endpoint.rawValue), resolvingAgainstBaseURL: false)
            ?? URLComponents()
        components.percentEncodedQuery = query
        // A base that URLComponents could not take apart is a configuration error caught at start-up;
        // falling back to the bare endpoint keeps this total.
        return components.url ?? base.appendingPathComponent(endpoint.rawValue)
    }

    /// What a cache or a log may hold: the operation and its parameters, never the key.
    public var cacheKey: String {
        ([operation] + parameters.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
    }

    public var description: String { cacheKey }

    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
