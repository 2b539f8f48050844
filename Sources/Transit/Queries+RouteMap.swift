import API
import OnwardCore
import TransitSources

extension Queries {
    /// A route's lines for its map: each direction's way and stops.
    public func routeMap(_ id: String) async throws(QueryError) -> RouteMapDTO {
        let (source, canonical) = try resolve(id, as: .route)
        guard source.capabilities.contains(.browse) else { throw QueryError(.unsupported, "\(source.displayName) has no list of routes.") }
        do {
            let map = try await source.routeMap(routeID: canonical)
            return RouteMapDTO(route: map.route, lines: map.lines)
        } catch {
            throw QueryError(error, sourceName: source.displayName, kind: .route)
        }
    }

    /// The route's vehicles on their way now, with their next stops: for its map, its list and its live channel.
    public func routeVehicles(_ id: String) async throws(QueryError) -> RouteVehiclesDTO {
        let (source, canonical) = try resolve(id, as: .route)
        guard source.capabilities.contains(.vehicles) else { throw QueryError(.unsupported, "\(source.displayName) has no vehicle positions.") }
        do {
            let answer = try await source.routeVehicles(routeID: canonical, now: now)
            return RouteVehiclesDTO(routeId: canonical, vehicles: answer.vehicles, timeZone: answer.timeZone, live: answer.live.map(LiveDTO.init))
        } catch {
            throw QueryError(error, sourceName: source.displayName, kind: .route)
        }
    }
}
