import API
import Foundation
import GTFSRealtime
import OnwardCore

extension RealtimeInspectDTO {
    /// An inspection as the API writes it: enums by name, times as ISO 8601 in `zone`.
    init(_ i: RealtimeInspection, source: String, size: Int, staticFeeds: [String], zone: TimeZone, now: Instant, otherFeeds: [String]?) {
        let h = i.header
        let stamp = h.hasTimestamp ? Instant(epochSeconds: Int64(clamping: h.timestamp)) : nil
        func iso(_ epoch: Int64) -> String { LocalTime(Instant(epochSeconds: epoch), in: zone).iso8601 }
        func stopTimeUpdate(_ s: StopTimeUpdateRecord) -> StopTimeUpdate {
            StopTimeUpdate(stopId: s.stopID, stopSequence: s.stopSequence.map(Int.init), scheduleRelationship: "\(s.relationship)",
                           arrival: s.arrival?.time.flatMap { $0 > 0 ? iso($0) : nil },
                           departure: s.departure?.time.flatMap { $0 > 0 ? iso($0) : nil },
                           arrivalDelaySeconds: s.arrival?.delay.map(Int.init), departureDelaySeconds: s.departure?.delay.map(Int.init))
        }
        func vehicle(_ e: TransitRealtime_FeedEntity) -> VehiclePosition {
            let v = e.vehicle
            // current_status means something only relative to a stop.
            let hasStop = v.hasStopID || v.hasCurrentStopSequence
            return VehiclePosition(
                entityId: e.id, deleted: e.isDeleted ? true : nil,
                vehicleId: v.hasVehicle && !v.vehicle.id.isEmpty ? v.vehicle.id : nil,
                label: v.hasVehicle && !v.vehicle.label.isEmpty ? v.vehicle.label : nil,
                tripId: v.hasTrip && v.trip.hasTripID ? v.trip.tripID : nil, routeId: v.hasTrip && v.trip.hasRouteID ? v.trip.routeID : nil,
                latitude: v.hasPosition ? Double(v.position.latitude) : nil, longitude: v.hasPosition ? Double(v.position.longitude) : nil,
                currentStatus: hasStop ? "\(v.currentStatus)" : nil, stopId: v.hasStopID ? v.stopID : nil,
                stopSequence: v.hasCurrentStopSequence ? Int(v.currentStopSequence) : nil,
                timestamp: v.hasTimestamp ? iso(Int64(clamping: v.timestamp)) : nil)
        }
        func tally(_ t: RealtimeInspection.Tally) -> Tally { Tally(matched: t.matched, unknown: t.unknown, unknownIds: t.unknownIDs) }
        let m = i.match
        self.init(
            source: source, sizeBytes: size, staticFeeds: staticFeeds, timeZone: zone.identifier,
            header: Header(gtfsRealtimeVersion: h.gtfsRealtimeVersion, incrementality: "\(h.incrementality)",
                           timestamp: stamp.map { LocalTime($0, in: .gmt).iso8601 }, localTimestamp: stamp.map { LocalTime($0, in: zone).iso8601 },
                           ageSeconds: stamp.map { Int(now.epochSeconds - $0.epochSeconds) }),
            counts: Counts(entities: i.entities, tripUpdates: i.tripUpdateCount, vehiclePositions: i.vehiclePositionCount,
                           alerts: i.alertCount, deleted: i.deleted),
            tripUpdates: i.tripUpdates.map { u in
                TripUpdate(entityId: u.entityID, deleted: u.isDeleted ? true : nil, tripId: u.tripID, routeId: u.routeID,
                           startDate: u.startDate, startTime: u.startTime, scheduleRelationship: "\(u.relationship)",
                           vehicleId: u.vehicleID.flatMap { $0.isEmpty ? nil : $0 }, stopTimeUpdateCount: u.stopTimeUpdates.count,
                           firstStopTimeUpdate: u.stopTimeUpdates.first.map(stopTimeUpdate))
            },
            vehiclePositions: i.vehiclePositions.map(vehicle),
            alerts: i.alerts.map { a in
                AlertSummary(entityId: a.id, effect: a.effect.rawValue, severity: a.severity.rawValue, cause: a.cause.rawValue,
                             header: a.header.best(for: [])?.trimmingCharacters(in: .whitespacesAndNewlines),
                             informedEntities: a.informedEntities.map(AlertDTO.EntityDTO.init))
            },
            match: Match(trips: tally(m.trips), tripsNotRunning: m.tripsNotRunning, cancelledTrips: m.cancelledTrips, addedTrips: m.addedTrips,
                         stopTimeUpdates: tally(m.stopTimeUpdates), stopTimeUpdateTotal: m.stopTimeUpdateTotal, skippedStops: m.skippedStops,
                         noDataStops: m.noDataStops, vehicles: tally(m.vehicles), routes: tally(m.routes), alertStops: tally(m.alertStops),
                         alertTrips: tally(m.alertTrips)),
            otherFeeds: otherFeeds)
    }
}
