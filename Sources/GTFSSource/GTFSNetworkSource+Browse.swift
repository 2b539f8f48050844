import Foundation
import OnwardCore
import Timetable
import TransitSources

extension GTFSNetworkSource {
    /// Every route of the network, by name.
    public func routes() async throws(SourceError) -> [RouteSummary] {
        let tt = store.current.timetable
        return tt.allRoutes.map(tt.routeInfo)
            .sorted { $0.displayName.localizedStandardCompare($1.displayName) == .orderedAscending }
            .map { RouteSummary(id: $0.id, shortName: $0.shortName, longName: $0.longName, color: $0.color) }
    }

    /// A route's directions, each named by where its trips go ("to Bundaran HI").
    public func directions(routeID: String) async throws(SourceError) -> [RouteDirection] {
        let tt = store.current.timetable
        return try directions(routeID, in: tt).map { RouteDirection(id: $0.id, name: "to \($0.headsign)") }
    }

    /// The stops of one direction, in order; a platform is shown as its station, where a board gathers all platforms.
    public func stops(routeID: String, directionID: String) async throws(SourceError) -> [StopPlace] {
        let tt = store.current.timetable
        guard let direction = try directions(routeID, in: tt).first(where: { $0.id == directionID }) else {
            throw SourceError(.notFound, "Route '\(routeID)' has no direction '\(directionID)'.")
        }
        return direction.stops.map { tt.place(tt.station(of: $0) ?? $0) }
    }

    private func directions(_ routeID: String, in tt: Timetable) throws(SourceError) -> [RouteDirectionInfo] {
        guard let route = tt.lookupRoute(id: routeID).found else { throw missing(routeID, "route") }
        return tt.directions(of: route)
    }
}
