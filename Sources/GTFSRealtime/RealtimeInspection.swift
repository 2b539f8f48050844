import Foundation
import OnwardCore
import Timetable

/// One decoded message summarised and matched against a timetable, the way boards would use it
/// (`onward rt inspect`): its counts, its first entities of each kind, and what did and did not match.
/// Decoding is `RealtimeFeed.decode`'s, so a file boards refuse is refused here in the same words.
public struct RealtimeInspection: Sendable {
    /// How many IDs of one kind matched, how many did not, and the first unknown ones.
    public struct Tally: Sendable, Hashable {
        public var matched: Int
        public var unknown: Int
        public var unknownIDs: [String]

        public init(matched: Int, unknown: Int, unknownIDs: [String]) {
            self.matched = matched; self.unknown = unknown; self.unknownIDs = unknownIDs
        }
    }

    public struct Match: Sendable, Hashable {
        public var trips: Tally
        public var tripsNotRunning: Int
        public var cancelledTrips: Int
        public var addedTrips: Int
        public var stopTimeUpdates: Tally
        public var stopTimeUpdateTotal: Int
        public var skippedStops: Int
        public var noDataStops: Int
        public var vehicles: Tally
        public var routes: Tally
        public var alertStops: Tally
        public var alertTrips: Tally
    }

    public var header: TransitRealtime_FeedHeader
    public var entities: Int
    public var tripUpdateCount: Int
    public var vehiclePositionCount: Int
    public var alertCount: Int
    /// Entities marked is_deleted, of any kind.
    public var deleted: Int
    /// The first `limit` of each kind, in feed order.
    public var tripUpdates: [TripUpdateRecord]
    public var vehiclePositions: [TransitRealtime_FeedEntity]
    public var alerts: [Alert]
    public var match: Match

    /// - Parameters:
    ///   - idPrefix: the static feed's prefix (`NAME:`) the message's bare IDs are read with.
    ///   - limit: how many entities of each kind to keep.
    public init(_ m: RealtimeMessage, timetable: Timetable, idPrefix: String, limit: Int, now: Instant) {
        let others = m.others.entity
        header = m.others.header
        entities = m.entityCount
        tripUpdateCount = m.tripUpdates.count
        vehiclePositionCount = others.count(where: \.hasVehicle)
        alertCount = others.count(where: \.hasAlert)
        // An entity with a trip update and something else is in both lists: counted once.
        deleted = m.tripUpdates.count(where: \.isDeleted) + others.count { $0.isDeleted && !$0.hasTripUpdate }
        let allAlerts = AlertDecoding.alerts(from: m.others, idPrefix: idPrefix)
        tripUpdates = Array(m.tripUpdates.prefix(limit))
        vehiclePositions = Array(others.filter(\.hasVehicle).prefix(limit))
        alerts = Array(allAlerts.prefix(limit))
        match = Self.match(m, alerts: allAlerts, timetable: timetable, prefix: idPrefix, now: now)
    }

    private static func match(_ m: RealtimeMessage, alerts: [Alert], timetable tt: Timetable, prefix: String, now: Instant) -> Match {
        // The appliers say what boards would make of the message; the ID lists below only name what they could not match.
        let t = m.tripUpdates.isEmpty ? RealtimeMatchReport() : TripUpdateApplier(timetable: tt, idPrefix: prefix).apply(m, now: now).report
        let v = m.hasVehicles ? VehiclePositionApplier(timetable: tt, idPrefix: prefix).apply(m.others, now: now).report : RealtimeMatchReport()
        let updates = m.tripUpdates.filter { !$0.isDeleted }
        let positions = m.others.entity.filter { $0.hasVehicle && !$0.isDeleted }.map(\.vehicle)

        // Unknown IDs are listed canonical, as the feed's bare IDs were read (`prefix` + ID).
        // ADDED and NEW trips are not expected in the static feed, so they are not "unknown".
        let unknownTrips = updates.filter { ![.added, .new].contains($0.relationship) }.compactMap(\.tripID)
            .map { prefix + $0 }.filter { tt.tripIndex(exactID: $0) == nil }
        let unknownStops = updates.flatMap(\.stopTimeUpdates).compactMap(\.stopID).map { prefix + $0 }.filter { tt.stopIndex(exactID: $0) == nil }
        let unknownVehicleTrips = positions.filter { $0.hasTrip && $0.trip.hasTripID }.map { prefix + $0.trip.tripID }
            .filter { tt.tripIndex(exactID: $0) == nil }

        // Route IDs from every trip descriptor and informed entity, each checked once.
        let known = Set(tt.allRoutes.map { tt.routeInfo($0).id })
        var routes: [String] = []
        for u in updates { if let r = u.routeID, !r.isEmpty { routes.append(prefix + r) } }
        for d in positions.map(\.trip) where d.hasRouteID && !d.routeID.isEmpty { routes.append(prefix + d.routeID) }
        for e in alerts.flatMap(\.informedEntities) { if let r = e.routeID ?? e.tripRouteID { routes.append(r) } }
        let distinctRoutes = firstOccurrences(routes)
        let unknownRoutes = distinctRoutes.filter { !known.contains($0) }

        let a = AlertBook(alerts: alerts, timetable: tt).report
        return Match(
            trips: Tally(matched: t.matchedTrips, unknown: t.unknownTrips, unknownIDs: Array(firstOccurrences(unknownTrips).prefix(10))),
            tripsNotRunning: t.unmatchedInstances, cancelledTrips: t.cancelledTrips, addedTrips: t.addedTrips,
            stopTimeUpdates: Tally(matched: t.matchedStopTimeUpdates, unknown: t.unknownStops,
                                   unknownIDs: Array(firstOccurrences(unknownStops).prefix(10))),
            stopTimeUpdateTotal: t.stopTimeUpdates, skippedStops: t.skippedStops, noDataStops: t.noDataStops,
            vehicles: Tally(matched: v.matchedVehicles, unknown: v.unknownVehicleTrips,
                            unknownIDs: Array(firstOccurrences(unknownVehicleTrips).prefix(10))),
            routes: Tally(matched: distinctRoutes.count - unknownRoutes.count, unknown: unknownRoutes.count,
                          unknownIDs: Array(unknownRoutes.prefix(10))),
            alertStops: Tally(matched: a.matchedStops, unknown: a.unknownStops, unknownIDs: Array(a.unknownStopExamples.prefix(10))),
            alertTrips: Tally(matched: a.matchedTrips, unknown: a.unknownTrips, unknownIDs: Array(a.unknownTripExamples.prefix(10))))
    }

    private static func firstOccurrences(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }
}
