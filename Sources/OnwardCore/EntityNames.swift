/// Names for people of stops and routes, by canonical ID: what a source knows, for alerts
/// and pages that refer to them by ID. An ID without a name is shown as it is.
public struct EntityNames: Sendable, Hashable {
    public var routes: [String: String]
    public var stops: [String: String]

    public init(routes: [String: String] = [:], stops: [String: String] = [:]) { self.routes = routes; self.stops = stops }

    public mutating func merge(_ other: EntityNames) {
        stops.merge(other.stops) { a, _ in a }
        routes.merge(other.routes) { a, _ in a }
    }
}
