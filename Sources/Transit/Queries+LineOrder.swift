import API
import OnwardCore
import TransitSources

extension Queries {
    /// The stations small networks list for browsing (the home page), in the order the trains call:
    /// each route's longest direction from end to end (a later route adds the stations not yet
    /// listed, in its own order), then the listed stations no route calls at, in the source's order.
    /// A source that cannot be browsed, or does not answer, keeps its own order.
    public func listedStationsInLineOrder() async -> [StopDTO] {
        var listed: [StopDTO] = []
        for source in registry.sources {
            let stations = source.listedStations()
            guard !stations.isEmpty else { continue }
            listed += await Self.inLineOrder(stations, of: source).map(StopDTO.init)
        }
        return listed
    }

    static func inLineOrder(_ stations: [StopPlace], of source: any TransitSource) async -> [StopPlace] {
        guard source.capabilities.contains(.browse), let routes = try? await source.routes() else { return stations }
        let byID = Dictionary(stations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var ordered: [StopPlace] = [], seen = Set<String>()
        for route in routes {
            var longest: [StopPlace] = []
            for direction in (try? await source.directions(routeID: route.id)) ?? [] {
                if let stops = try? await source.stops(routeID: route.id, directionID: direction.id), stops.count > longest.count { longest = stops }
            }
            for stop in longest {
                if let station = byID[stop.id], seen.insert(stop.id).inserted { ordered.append(station) }
            }
        }
        return ordered + stations.filter { !seen.contains($0.id) }
    }
}
